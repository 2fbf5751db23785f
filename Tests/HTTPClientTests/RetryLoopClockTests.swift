import Base
import HTTPClient
import Testing
import TestSupport

/// The retry loop reads and waits only on its deadline's clock: on a manual clock a backoff
/// is exact and takes no real time. No sockets.
@Suite(.timeLimit(.minutes(1))) struct RetryLoopClockTests {
    static let request = UpstreamRequest(url: "http://127.0.0.1:9/r", provider: "p")

    /// 503 with `Retry-After: 30` (the configured cap is raised to let it through), then 200.
    static func run(deadline: UpstreamDeadline, attempts: Locked<Int>) async throws -> UpstreamResponse {
        var configuration = HTTPClientConfiguration()
        configuration.maxRetryDelayMs = 60_000
        return try await RetryLoop.run(request, retries: 1, deadline: deadline, configuration: configuration,
                                       gate: OpenGate()) { _ in
            let number = attempts.increment()
            return .success(UpstreamResponse(status: number == 1 ? 503 : 200, headers: ["Retry-After": "30"]))
        }
    }

    @Test func aRetryWaitsOnTheDeadlinesClock() async throws {
        let clock = ManualClock()
        let attempts = Locked(0)
        let call = Task { try await Self.run(deadline: UpstreamDeadline(clock: clock, afterMilliseconds: 60_000), attempts: attempts) }
        #expect(await waitUntil { clock.sleepers == 1 }, "waiting 30 s of the manual clock")
        #expect(attempts.value == 1)
        clock.advance(by: 30)
        #expect(try await call.value.status == 200)
        #expect(attempts.value == 2)
    }

    @Test func aWaitThatWouldPassTheDeadlineIsNotTaken() async throws {
        let clock = ManualClock()
        let attempts = Locked(0)
        let response = try await Self.run(deadline: UpstreamDeadline(clock: clock, afterMilliseconds: 29_999), attempts: attempts)
        #expect(response.status == 503, "the last answer, at once")
        #expect(attempts.value == 1)
        #expect(clock.sleepers == 0)
    }

    @Test func aCancelledWaitEndsTheCallAsCancelled() async throws {
        let clock = ManualClock()
        let attempts = Locked(0)
        let call = Task { try await Self.run(deadline: UpstreamDeadline(clock: clock, afterMilliseconds: 60_000), attempts: attempts) }
        #expect(await waitUntil { clock.sleepers == 1 })
        call.cancel()
        do {
            _ = try await call.value
            Issue.record("expected a cancellation")
        } catch let error as UpstreamError {
            #expect(error.kind == .cancelled)
        }
        #expect(clock.sleepers == 0)
        #expect(attempts.value == 1)
    }
}
