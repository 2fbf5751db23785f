import Testing
@testable import HTTPClient

/// `StallGuard` on a fake clock: nothing before the first byte, then a minimum rate per stretch.
@Suite struct StallGuardTests {
    @Test func noStallBeforeTheFirstByte() {
        var stall = StallGuard(minBytesPerSecond: 100, seconds: 3)
        for second in stride(from: 0.0, through: 60, by: 0.5) { do { let stalled = stall.hasStalled(now: second); #expect(!stalled) } }
        #expect(stall.stretchStart == nil)
    }

    @Test func aTrickleAfterTheFirstByteStalls() {
        var stall = StallGuard(minBytesPerSecond: 100, seconds: 3)
        stall.received(50, now: 10)
        do { let stalled = stall.hasStalled(now: 12.9); #expect(!stalled) }
        stall.received(100, now: 12.9)
        do { let stalled = stall.hasStalled(now: 13); #expect(stalled, "150 bytes in 3 s is under 100 a second") }
    }

    @Test func aStretchAtTheRateStartsTheNext() {
        var stall = StallGuard(minBytesPerSecond: 100, seconds: 3)
        stall.received(400, now: 0)
        do { let stalled = stall.hasStalled(now: 3); #expect(!stalled) }
        #expect(stall.stretchStart == 3)
        do { let stalled = stall.hasStalled(now: 5.9); #expect(!stalled) }
        do { let stalled = stall.hasStalled(now: 6); #expect(stalled, "nothing arrived in the second stretch") }
    }

    @Test func zeroSwitchesItOff() {
        for (rate, seconds) in [(0, 3.0), (100, 0.0), (100, -1.0), (100, .infinity)] {
            var stall = StallGuard(minBytesPerSecond: rate, seconds: seconds)
            stall.received(1, now: 0)
            #expect(!stall.isEnabled)
            do { let stalled = stall.hasStalled(now: 1000); #expect(!stalled) }
        }
    }
}
