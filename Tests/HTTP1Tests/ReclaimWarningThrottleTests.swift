import Testing
@testable import HTTP1

@Suite struct ReclaimWarningThrottleTests {
    static let second: UInt64 = 1_000_000_000

    @Test func warnsAtOnceThenAtMostOncePerInterval() {
        var throttle = ReclaimWarningThrottle(interval: 10 * Self.second)
        let t0: UInt64 = 500 * Self.second
        #expect(throttle.record(.idle, now: t0) == .init(idle: 1, silent: 0))
        #expect(throttle.record(.idle, now: t0 + 1) == nil)
        #expect(throttle.record(.silent, now: t0 + 5 * Self.second) == nil)
        #expect(throttle.record(.idle, now: t0 + 10 * Self.second - 1) == nil)
        // Due again: reports everything since the last line, this one included.
        #expect(throttle.record(.silent, now: t0 + 10 * Self.second) == .init(idle: 2, silent: 2))
        #expect(throttle.record(.idle, now: t0 + 11 * Self.second) == nil)
        // A quiet spell: the next reclaim warns at once with only what is new.
        #expect(throttle.record(.idle, now: t0 + 60 * Self.second) == .init(idle: 2, silent: 0))
    }

    @Test func aClockReadingFromBeforeTheLastLineIsNotDue() {
        var throttle = ReclaimWarningThrottle(interval: 10 * Self.second)
        #expect(throttle.record(.idle, now: 100 * Self.second) != nil)
        #expect(throttle.record(.idle, now: 99 * Self.second) == nil)
    }
}
