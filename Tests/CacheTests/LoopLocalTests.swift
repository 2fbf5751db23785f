import TestSupport
import Testing
@testable import Cache
@testable import Transport

/// `LoopLocal`: one copy per event loop, each under its own mutex.
@Suite struct LoopLocalTests {
    @Test func eachLoopHasItsOwnCopy() async {
        let counts = LoopLocal { 0 }
        #expect(await onEventLoop(0) { counts.current.state.withLock { count -> Int in count += 1; return count } } == 1)
        #expect(await onEventLoop(0) { counts.current.state.withLock { count -> Int in count += 1; return count } } == 2)
        #expect(await onEventLoop(1) { counts.current.state.withLock { count -> Int in count += 1; return count } } == 1)
        #expect(counts.current.state.withLock { count -> Int in count += 10; return count } == 10)  // off the loops
        var all: [Int] = []
        counts.forEach { all.append($0) }
        #expect(all.count == LoopShard.count)
        #expect(all.reduce(0, +) == 13)
        #expect(all.prefix(3) == [10, 2, 1])
    }

    @Test func aLoopNeverWaitsForAnotherCopysLock() async {
        let counts = LoopLocal { 0 }
        // With the copy of everything off the loops held by another thread, loop 0 gets through.
        let offLoop = counts.current
        let fromLoop = await whileHeldElsewhere({ hold in offLoop.state.withLock { _ in hold() } }) {
            await onEventLoop(0) { counts.current.state.withLock { count -> Int in count += 1; return count } }
        }
        #expect(fromLoop == 1, "a loop waited for another copy's lock")
    }
}
