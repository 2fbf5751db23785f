import Base

/// The one retry loop of every upstream GET: attempts until an answer is final, the retries
/// (`upstream.retries`) are spent, the gate says no, or the deadline would be passed.
///
/// - Retried: what `RetryPolicy.isRetryable` names (502/503/504, connection refused or reset,
///   timeouts with time left) and the gate allows (the steward: not while the provider
///   asked to stop, and within its retry budget). A 429 is never retried.
/// - Each wait is `RetryPolicy.delay` (Retry-After or backoff with full jitter); no attempt
///   starts that could not finish before `deadline`.
/// - Cancellation ends it with `.cancelled`.
/// - Time: every reading and every wait is on the deadline's clock (`UpstreamDeadline`).
public enum RetryLoop {
    public static func run(
        _ request: UpstreamRequest, retries: Int, deadline: UpstreamDeadline,
        configuration: HTTPClientConfiguration, gate: any AttemptGate,
        attempt: (UpstreamDeadline) async -> Result<UpstreamResponse, UpstreamError>
    ) async throws -> UpstreamResponse {
        var number = 0
        var previous: Result<UpstreamResponse, UpstreamError>?
        while true {
            number += 1
            let permit: any AttemptPermit
            do {
                permit = try await gate.admit(request, attempt: number, deadline: deadline)
            } catch {
                if Task.isCancelled {
                    throw UpstreamError(.cancelled, provider: request.provider, detail: "cancelled while waiting to send")
                }
                if let previous { return try previous.get() }
                throw error
            }
            let result = await attempt(deadline)
            await permit.finish(result)
            if case .failure(let error) = result, error.kind == .cancelled { throw error }
            guard number <= retries, RetryPolicy.isRetryable(result),
                  await gate.mayRetry(request, after: result) else { return try result.get() }
            let wait = RetryPolicy.delay(after: result, attempt: number, configuration: configuration).inSeconds
            guard wait < deadline.remainingSeconds else { return try result.get() }
            do {
                try await deadline.clock.sleep(seconds: wait)
            } catch {
                throw UpstreamError(.cancelled, provider: request.provider, detail: "cancelled while waiting to retry")
            }
            previous = result
        }
    }
}
