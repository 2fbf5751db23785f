import Dispatch
import Testing
import Transport

/// `SystemFacts.monotonicNanoseconds` is read where `DispatchTime` used to be (a connection's
/// event time, request latency) and compared with readings Dispatch made (the event loop's
/// timers): it must be the same clock with the same origin.
@Suite struct SystemFactsTests {
    @Test func theMonotonicReadingIsDispatchsUptime() {
        for _ in 0..<100 {
            let before = DispatchTime.now().uptimeNanoseconds
            let reading = SystemFacts.monotonicNanoseconds()
            let after = DispatchTime.now().uptimeNanoseconds
            // Sandwiched between two Dispatch readings: another clock or origin (boot time,
            // the wall clock) would be off by seconds or years.
            #expect(before <= reading && reading <= after, "\(before) \(reading) \(after)")
        }
    }
}
