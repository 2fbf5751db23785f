import HTTPClient
import HTTP1

/// Maps upstream failures to the problems clients see: a timeout is 504 (`upstream-timeout`),
/// every other failure 502 (`upstream-failed`).
///
/// Two audiences, two texts. The problem's detail names the provider, the cause class and the
/// request id ("google-books: timed out after 5000 ms (request id 5f0c…)"), never an upstream
/// URL, host or port: a public error must not map the internal network. The operator's warn
/// line (`UpstreamFailureLog`, written when the request failed) carries the same request id with
/// what the client does not see: the redacted upstream URL and libcurl's own message.
public enum UpstreamProblem {
    public static func problem(for error: UpstreamError, requestID: String = "") -> Problem {
        problem(forAll: [error], requestID: requestID)
    }

    /// Several providers failed in turn: 504 only when every one of them timed out.
    public static func problem(forAll errors: [UpstreamError], requestID: String = "") -> Problem {
        let reference = requestID.isEmpty ? "" : " (request id \(requestID))"
        guard let first = errors.first else {
            return Problem(status: .badGateway, slug: "upstream-failed", title: "Upstream failed",
                           detail: "No upstream provider is configured\(reference).")
        }
        let causes = errors.count == 1 ? publicCause(first) : errors.map(publicCause).joined(separator: "; ")
        if errors.allSatisfy(\.isTimeout) {
            return Problem(status: .gatewayTimeout, slug: "upstream-timeout", title: "Upstream timed out",
                           detail: (errors.count == 1 ? causes : "Every provider timed out: " + causes) + reference)
        }
        return Problem(status: .badGateway, slug: "upstream-failed", title: "Upstream failed",
                       detail: (errors.count == 1 ? causes : "Every provider failed: " + causes) + reference)
    }

    /// `provider: cause`. Details are written to be public (see `UpstreamError.detail`); as a
    /// last line of defence, one that still looks like it holds a URL is replaced by its class.
    static func publicCause(_ error: UpstreamError) -> String {
        let text = error.publicDescription
        guard text.contains("://") || text.contains("@") else { return text }
        return "\(error.provider): " + UpstreamMetrics.outcomeLabel(for: error.kind).replacingOccurrences(of: "_", with: " ")
    }
}
