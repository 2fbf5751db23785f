import Synchronization

/// A one-shot async gate for tests: work waits on it until the test opens it, so "requests in
/// flight" or "a load still running" is a state the test controls rather than a race it hopes
/// to win.
public final class Gate: Sendable {
    private struct State {
        var open = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        var arrived = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// How many callers have reached the gate (waiting or already let through).
    public var arrived: Int { state.withLock { $0.arrived } }

    /// Suspends until the gate is open (returns at once if it already is).
    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state in
                state.arrived += 1
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Opens the gate for every waiter, present and future.
    public func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
