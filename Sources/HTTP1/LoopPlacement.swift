/// Which event loop a newly accepted connection lives on (`server.loopPlacement`).
public enum LoopPlacement: String, Sendable, Equatable, CaseIterable {
    /// The loop whose listening socket accepted it: the kernel spreads connections evenly over
    /// the loops (`SO_REUSEPORT` hashes each connection's addresses), whatever the load.
    case spread
    /// Packed onto the loops `LoopGovernor` keeps active: the active loop with the fewest open
    /// connections (the lowest-numbered on a tie), so light load runs on one loop and heavier
    /// load is shared evenly by as many loops as the machine has processors for. The default.
    case adaptive

    /// The loop among `0..<active` with the fewest of `connections` (by loop index).
    static func leastLoaded(active: Int, connections: (Int) -> Int) -> Int {
        var best = 0
        var bestCount = connections(0)
        var index = 1
        while index < active {
            let count = connections(index)
            if count < bestCount {
                best = index
                bestCount = count
            }
            index += 1
        }
        return best
    }
}
