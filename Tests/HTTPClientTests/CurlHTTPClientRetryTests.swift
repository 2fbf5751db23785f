import Base
import Foundation
import HTTPClient
import HTTPClientTestSupport
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(5))) struct CurlHTTPClientRetryTests {
    @Test func unavailableThenOkSucceedsOnTheSecondAttempt() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        stub.route("/r", sequence: [.json("{}", status: 503), .json(#"{"ok":1}"#)])
        let client = makeClient(retries: 2)
        let response = try await client.get(UpstreamRequest(url: stub.baseURL + "/r", provider: "p"))
        #expect(response.status == 200)
        #expect(stub.requestCount(for: "/r") == 2)
        #expect(client.metrics.count(provider: "p", outcome: "http_5xx") == 1)
        #expect(client.metrics.count(provider: "p", outcome: "ok") == 1)
    }

    @Test func statusRemainingAfterRetriesIsReturned() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        stub.setFault(.status(502))
        let response = try await makeClient(retries: 2) { $0.retryBaseDelayMs = 5 }
            .get(UpstreamRequest(url: stub.baseURL + "/r", provider: "p"))
        #expect(response.status == 502)
        #expect(stub.requestCount(for: "/r") == 3)
    }

    /// The wait is on the client's clock: the retry goes when the manual clock reaches
    /// Retry-After, not after a second of real time (no elapsed-time assert on a busy machine).
    @Test func retryAfterIsHonoured() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        stub.route("/r", sequence: [StubResponse(status: 503, headers: [("Retry-After", "1")]), .json("{}")])
        let clock = ManualClock(start: 1_000)
        let client = makeClient(retries: 1, clock: clock) { $0.retryBaseDelayMs = 1 }
        let call = Task { try await client.get(UpstreamRequest(url: stub.baseURL + "/r", provider: "p")) }
        #expect(await waitUntil { clock.sleepers == 1 }, "waiting for Retry-After")
        #expect(stub.requestCount(for: "/r") == 1)
        clock.set(1_000.999)
        #expect(clock.sleepers == 1, "not before Retry-After")
        clock.set(1_001)
        #expect(try await call.value.status == 200)
        #expect(stub.requestCount(for: "/r") == 2)
    }

    @Test func tooManyRequestsIsNeverRetried() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        stub.route("/r", sequence: [StubResponse(status: 429, headers: [("Retry-After", "0")]), .json("{}")])
        let response = try await makeClient(retries: 2) { $0.retryBaseDelayMs = 1 }
            .get(UpstreamRequest(url: stub.baseURL + "/r", provider: "p"))
        #expect(response.status == 429)
        #expect(stub.requestCount(for: "/r") == 1)
    }

    @Test func retryAfterBeyondTheDeadlineReturnsTheLastAnswer() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        stub.route("/r", StubResponse(status: 503, headers: [("Retry-After", "2")]))
        // Retry-After (2 s) is beyond what is left of the 1.5 s deadline: no second attempt; the
        // 503 itself comes back (a wait-then-retry would show as a second request at the stub).
        // On a manual clock the 1.5 s left are exact, however long the machine takes.
        let response = try await makeClient(timeoutMs: 1500, retries: 2, clock: ManualClock())
            .get(UpstreamRequest(url: stub.baseURL + "/r", provider: "p"))
        #expect(response.status == 503)
        #expect(stub.requestCount(for: "/r") == 1)
    }

    @Test func malformedAnswersAreNotRetried() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        stub.setFault(.garbage)
        let error = await expectUpstreamError { try await makeClient(retries: 2).get(UpstreamRequest(url: stub.baseURL + "/g", provider: "p")) }
        #expect(error?.kind == .malformed)
        #expect(stub.requestCount(for: "/g") == 1)
    }

    @Test func faultsSwitchOffAtRunTime() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        stub.route("/f", .json("{}"))
        stub.setFault(.reset, for: "/f")
        let client = makeClient(retries: 0)
        let error = await expectUpstreamError { try await client.get(UpstreamRequest(url: stub.baseURL + "/f", provider: "p")) }
        #expect(error?.kind == .connectionReset)
        stub.setFault(nil, for: "/f")
        #expect(try await client.get(UpstreamRequest(url: stub.baseURL + "/f", provider: "p")).status == 200)
    }
}

@Suite struct RetryPolicyTests {
    @Test func retryAfterParsesSecondsAndHTTPDates() {
        let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
        #expect(RetryPolicyProbe.retryAfter("3", now: now) == 3)
        #expect(RetryPolicyProbe.retryAfter("Wed, 21 Oct 2015 07:28:05 GMT", now: now) == 5)
        #expect(RetryPolicyProbe.retryAfter("Wed, 21 Oct 2015 07:27:00 GMT", now: now) == 0)
        #expect(RetryPolicyProbe.retryAfter("soon", now: now) == nil)
    }

    @Test func backoffIsCappedFullJitter() {
        var configuration = HTTPClientConfiguration()
        configuration.retryBaseDelayMs = 100
        configuration.maxRetryDelayMs = 2000
        #expect(RetryPolicyProbe.maxBackoff(attempt: 1, configuration) == .milliseconds(100))
        #expect(RetryPolicyProbe.maxBackoff(attempt: 3, configuration) == .milliseconds(400))
        #expect(RetryPolicyProbe.maxBackoff(attempt: 10, configuration) == .milliseconds(2000))
        let capped = RetryPolicyProbe.delay(retryAfter: "60", configuration)
        #expect(capped == .milliseconds(2000))
    }
}
