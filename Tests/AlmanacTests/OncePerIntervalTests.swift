import Testing
@testable import Almanac

@Suite struct OncePerIntervalTests {
    /// Feeds (key, time) pairs in order and returns which were let through.
    private func verdicts(_ limit: inout OncePerInterval, _ events: [(String, Double)]) -> [Bool] {
        events.map { limit.allow($0.0, now: $0.1) }
    }

    @Test func oncePerKeyPerInterval() {
        var limit = OncePerInterval(interval: 60)
        let seen = verdicts(&limit, [("rates/BTC", 0), ("rates/BTC", 1), ("rates/BTC", 59.9),
                                     ("books/978", 2), ("rates/BTC", 60), ("rates/BTC", 100)])
        #expect(seen == [true, false, false, true, true, false])
    }

    @Test func memoryIsBounded() {
        var limit = OncePerInterval(interval: 60, capacity: 3)
        #expect(verdicts(&limit, [("a", 0), ("b", 1), ("c", 2)]) == [true, true, true])
        #expect(verdicts(&limit, [("d", 10)]) == [true], "full and all recent: the oldest goes")
        #expect(limit.lastAllowed.count == 3 && limit.lastAllowed["a"] == nil)
        #expect(verdicts(&limit, [("b", 11)]) == [false], "the others are still remembered")
        #expect(verdicts(&limit, [("e", 200)]) == [true], "all old: forgotten at once")
        #expect(limit.lastAllowed.count == 1)
    }
}
