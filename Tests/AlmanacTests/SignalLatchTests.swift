import Foundation
import Synchronization
import Testing
@testable import Almanac

/// The latch's logic, fed by hand. Real signal delivery is not tested in-process: the test
/// runner's threads do not block the signal, so a self-sent one may be discarded as ignored;
/// `almanac serve` is checked with a real SIGTERM at integration (exit 0 after draining).
@Suite struct SignalLatchTests {
    @Test func firstSignalResumesTheWaiterAndLaterOnesAreRepeats() async {
        let repeats = Mutex<[Int32]>([])
        let latch = SignalLatch(signals: [SIGUSR2]) { sig in repeats.withLock { $0.append(sig) } }
        defer { latch.cancel() }
        async let waited = latch.wait()
        #expect(latch.fire(SIGUSR2))
        #expect(await waited == SIGUSR2)
        #expect(!latch.fire(SIGUSR2), "a second signal is a repeat")
        #expect(await latch.wait() == SIGUSR2, "waiting after the fact returns at once")
    }
}
