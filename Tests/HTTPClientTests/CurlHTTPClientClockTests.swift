import Base
import HTTPClient
import HTTPClientTestSupport
import Testing
import TestSupport

/// The real client on a manual clock: every time it judges by (here the stall guard's) is the
/// injected clock's, so the test moves it instead of waiting real seconds. (Suites of
/// libcurl's own real-time timeouts are in `CurlHTTPClientFaultTests`.)
@Suite(.timeLimit(.minutes(5))) struct CurlHTTPClientClockTests {
    /// The stall guard judges by the client's clock, not by real seconds: with a manual clock
    /// and a 600 s guard, a drip is cut once the clock is moved past the guard.
    @Test func theStallGuardCountsOnTheClientsClock() async throws {
        let server = try drippingServer(interval: 0.5)
        defer { server.stop() }
        let clock = ManualClock()
        let client = makeClient(timeoutMs: 60_000, clock: clock) {
            $0.stallBytesPerSecond = 100
            $0.stallSeconds = 600
        }
        let finished = Locked(false)
        let call = Task {
            defer { finished.set(true) }
            return await expectUpstreamError { try await client.get(UpstreamRequest(url: server.baseURL + "/", provider: "p")) }
        }
        // The guard counts from the answer's first byte, whose arrival the test cannot see: the
        // clock moves a guard's length at a time until libcurl's next progress tick cuts it.
        #expect(await waitUntil(timeout: 30) {
            clock.advance(by: 601)
            return finished.value
        }, "cut on the manual clock, long before 600 real seconds")
        let error = await call.value
        #expect(error?.kind == .timeout)
        #expect(error?.diagnostic.contains("stalled") == true, "\(error?.diagnostic ?? "")")
    }
}
