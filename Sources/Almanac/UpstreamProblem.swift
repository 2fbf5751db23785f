import HTTPClient
import HTTPServer

/// Maps upstream failures to the problems clients see (API.md §4): a timeout is 504
/// (`upstream-timeout`), every other failure 502 (`upstream-failed`). Details name the
/// provider and the cause, never a URL with secrets (the client redacts before this point).
public enum UpstreamProblem {
    public static func problem(for error: UpstreamError) -> Problem {
        if error.isTimeout {
            return Problem(status: .gatewayTimeout, slug: "upstream-timeout",
                           title: "Upstream timed out",
                           detail: "\(error.provider) did not answer in time: \(error.detail)")
        }
        return Problem(status: .badGateway, slug: "upstream-failed",
                       title: "Upstream failed",
                       detail: "\(error.provider) failed (\(error.kind.rawValue)): \(error.detail)")
    }

    /// Several providers failed in turn: 504 only when every one of them timed out.
    public static func problem(forAll errors: [UpstreamError]) -> Problem {
        guard let first = errors.first else {
            return Problem(status: .badGateway, slug: "upstream-failed", title: "Upstream failed",
                           detail: "No upstream provider is configured.")
        }
        if errors.count == 1 { return problem(for: first) }
        let summary = errors.map { "\($0.provider): \($0.kind.rawValue) (\($0.detail))" }.joined(separator: "; ")
        if errors.allSatisfy(\.isTimeout) {
            return Problem(status: .gatewayTimeout, slug: "upstream-timeout", title: "Upstream timed out",
                           detail: "Every provider timed out: \(summary)")
        }
        return Problem(status: .badGateway, slug: "upstream-failed", title: "Upstream failed",
                       detail: "Every provider failed: \(summary)")
    }
}
