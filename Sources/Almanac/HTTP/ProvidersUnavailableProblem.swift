import HTTP1
import Upstream

/// The problem for a provider chain that produced no answer.
///
/// When a provider was skipped (it asked almanac to stop, its breaker is open, or its budget
/// is spent), trying again later is the remedy: 503 `upstream-paused` with `Retry-After` =
/// seconds until the first skipped provider may be asked again (at least 1). Otherwise the
/// failures decide (502, or 504 when every one timed out; see `UpstreamProblem`). Either way
/// `Cache-Control: no-store`, and the cache stores no error, so a stale answer within its
/// window is still served instead (stale-if-error).
///
/// Like every upstream problem, the detail names providers, causes and the request id, never an
/// upstream URL; each failure was logged when it happened, with the redacted URL (`UpstreamFailureLog`).
enum ProvidersUnavailableProblem {
    static func problem(_ unavailable: ProvidersUnavailable, requestID: String = "") -> Problem {
        let failed = UpstreamProblem.problem(forAll: unavailable.failures, requestID: requestID)
        guard let retryAfter = unavailable.retryAfterSeconds else { return failed }
        let seconds = Int(min(86_400, max(1, retryAfter.rounded(.up))))
        let reasons = unavailable.skipped.map(\.description) + unavailable.failures.map(UpstreamProblem.publicCause)
        let reference = requestID.isEmpty ? "" : " (request id \(requestID))"
        var problem = Problem(status: .serviceUnavailable, slug: "upstream-paused", title: "Upstream providers paused",
                              detail: "No provider could answer now: \(reasons.joined(separator: "; ")). Retry after \(seconds) s\(reference).")
        problem.retryAfterSeconds = seconds
        return problem
    }
}
