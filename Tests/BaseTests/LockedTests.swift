import Dispatch
import TestSupport
import Testing

/// The one lock box: increments and appends from many threads at once are none of them lost.
@Suite struct LockedTests {
    @Test func concurrentUpdatesAreNotLost() {
        let count = Locked(0)
        let lines = Locked<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 1_000) { i in
            count.increment()
            lines.append(i)
        }
        #expect(count.value == 1_000)
        #expect(lines.value.sorted() == Array(0..<1_000))
        #expect(count.increment(by: 5) == 1_005)
        count.set(2)
        #expect(count.withLock { $0 *= 3; return $0 } == 6)
    }
}
