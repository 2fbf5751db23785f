@testable import HTTP1
import Testing

/// The rule that decides how many event loops take new connections, fed made-up windows: no
/// sockets, no clocks.
@Suite struct LoopGovernorTests {
    static let window: UInt64 = 250_000_000

    /// A window in which the loops were busy for the given fractions, the machine had `spare`
    /// processors idle (nil: unknown), and the loops held `connections`.
    static func sample(busy: [Double], spare: Double?, connections: [Int]) -> LoopGovernor.Sample {
        LoopGovernor.Sample(windowNanoseconds: window,
                            loopBusyNanoseconds: busy.map { UInt64($0 * Double(window)) },
                            idleProcessorNanoseconds: spare.map { UInt64($0 * Double(window)) },
                            connections: connections)
    }

    @Test func startsWithOneLoopAndStaysThereUnderLightLoad() {
        var governor = LoopGovernor(loopCount: 4)
        #expect(governor.active == 1)
        for _ in 0..<20 {
            let outcome = governor.observe(Self.sample(busy: [0.4, 0, 0, 0], spare: 3.5, connections: [50, 0, 0, 0]))
            #expect(outcome == LoopGovernor.Outcome(active: 1, shed: []))
        }
    }

    /// The bench's case: one loop saturated, but the other processor is the load generator's;
    /// a second loop would only take turns with it.
    @Test func aSaturatedLoopWithNoSpareProcessorStaysAlone() {
        var governor = LoopGovernor(loopCount: 2)
        for _ in 0..<20 {
            #expect(governor.observe(Self.sample(busy: [0.99, 0], spare: 0.05, connections: [50, 0])).active == 1)
        }
    }

    @Test func aSaturatedLoopWithASpareProcessorTakesOnAnotherAndEvensOut() {
        var governor = LoopGovernor(loopCount: 4)
        let busy = Self.sample(busy: [0.95, 0, 0, 0], spare: 2.9, connections: [60, 0, 0, 0])
        // One window is a burst, not load.
        #expect(governor.observe(busy) == LoopGovernor.Outcome(active: 1, shed: []))
        // The second in a row: loop 1 joins, and loop 0 lets 30 go so both end with 30.
        #expect(governor.observe(busy) == LoopGovernor.Outcome(active: 2, shed: [30, 0, 0, 0]))
        // Both saturated with processors to spare: a third, sharing the 60 three ways.
        let two = Self.sample(busy: [0.9, 0.9, 0, 0], spare: 1.9, connections: [30, 30, 0, 0])
        _ = governor.observe(two)
        #expect(governor.observe(two) == LoopGovernor.Outcome(active: 3, shed: [10, 10, 0, 0]))
    }

    @Test func anUnknownIdleTimeCountsAsRoomToSpare() {
        var governor = LoopGovernor(loopCount: 2)
        _ = governor.observe(Self.sample(busy: [0.9, 0], spare: nil, connections: [8, 0]))
        #expect(governor.observe(Self.sample(busy: [0.9, 0], spare: nil, connections: [8, 0])).active == 2)
    }

    @Test func aBrokenStreakStartsOver() {
        var governor = LoopGovernor(loopCount: 2)
        _ = governor.observe(Self.sample(busy: [0.9, 0], spare: 1, connections: [8, 0]))
        _ = governor.observe(Self.sample(busy: [0.2, 0], spare: 1.7, connections: [8, 0]))
        #expect(governor.observe(Self.sample(busy: [0.9, 0], spare: 1, connections: [8, 0])).active == 1)
        #expect(governor.observe(Self.sample(busy: [0.9, 0], spare: 1, connections: [8, 0])).active == 2)
    }

    @Test func loopsAreLetGoOnlyAfterLongLightLoadAndNeverBelowOne() {
        var governor = LoopGovernor(loopCount: 2)
        for _ in 0..<LoopGovernor.windowsToGrow {
            _ = governor.observe(Self.sample(busy: [0.9, 0], spare: 1, connections: [8, 0]))
        }
        #expect(governor.active == 2)
        // Light, but the two loops' load would not fit on one: kept.
        for _ in 0..<20 {
            #expect(governor.observe(Self.sample(busy: [0.4, 0.4], spare: 1, connections: [4, 4])).active == 2)
        }
        // Light enough, one window short of the streak: kept.
        for _ in 0..<(LoopGovernor.windowsToShrink - 1) {
            #expect(governor.observe(Self.sample(busy: [0.1, 0.1], spare: 1.8, connections: [4, 4])).active == 2)
        }
        // The last window of the streak: one loop again, nobody cut (connections end on their own).
        #expect(governor.observe(Self.sample(busy: [0.1, 0.1], spare: 1.8, connections: [4, 4]))
            == LoopGovernor.Outcome(active: 1, shed: []))
        for _ in 0..<20 {
            #expect(governor.observe(Self.sample(busy: [0, 0], spare: 2, connections: [0, 0])).active == 1)
        }
    }

    /// Connections placed while the server was idle all sit on loop 0; once loop 1 is active,
    /// loop 0 saturated while loop 1 has room evens them out again.
    @Test func unevenlyBusyActiveLoopsAreEvenedOut() {
        var governor = LoopGovernor(loopCount: 2)
        for _ in 0..<LoopGovernor.windowsToGrow {
            _ = governor.observe(Self.sample(busy: [0.9, 0], spare: 1, connections: [10, 0]))
        }
        let uneven = Self.sample(busy: [0.95, 0.2], spare: 0.8, connections: [40, 10])
        #expect(governor.observe(uneven) == LoopGovernor.Outcome(active: 2, shed: []))
        #expect(governor.observe(uneven) == LoopGovernor.Outcome(active: 2, shed: [15, 0]))
        // Even counts already: nothing to shed, whatever the busy fractions say.
        let evenCounts = Self.sample(busy: [0.95, 0.2], spare: 0.8, connections: [25, 25])
        _ = governor.observe(evenCounts)
        #expect(governor.observe(evenCounts) == LoopGovernor.Outcome(active: 2, shed: []))
    }

    @Test func oneLoopOrAMalformedSampleChangesNothing() {
        var one = LoopGovernor(loopCount: 1)
        for _ in 0..<5 {
            #expect(one.observe(Self.sample(busy: [1], spare: 5, connections: [100])) == LoopGovernor.Outcome(active: 1, shed: []))
        }
        var two = LoopGovernor(loopCount: 2)
        for _ in 0..<5 {
            #expect(two.observe(Self.sample(busy: [1], spare: 5, connections: [100])).active == 1)
            #expect(two.observe(LoopGovernor.Sample(windowNanoseconds: 0, loopBusyNanoseconds: [1, 1],
                                                    idleProcessorNanoseconds: 1, connections: [1, 1])).active == 1)
        }
    }

    @Test func evenOutSharesTheActiveLoopsConnections() {
        #expect(LoopGovernor.evenOut([7, 0, 0], active: 3) == [4, 0, 0])
        #expect(LoopGovernor.evenOut([3, 3, 9], active: 2) == [])
        #expect(LoopGovernor.evenOut([0, 0], active: 2) == [])
    }

    @Test func placementPicksTheActiveLoopWithFewestConnections() {
        let counts = [5, 2, 2, 0]
        #expect(LoopPlacement.leastLoaded(active: 1) { counts[$0] } == 0)
        #expect(LoopPlacement.leastLoaded(active: 3) { counts[$0] } == 1)
        #expect(LoopPlacement.leastLoaded(active: 4) { counts[$0] } == 3)
    }
}
