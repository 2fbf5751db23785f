import Base
import Books
import HTTPClient
import HTTP1
import Web
import Upstream

/// The problems (RFC 9457) the books endpoints answer with: the domain's `BooksProblem`s
/// (slugs and wording, in Books like Rates' `RatesInputError`) given a status and almanac's
/// problem types, plus the HTTP layer's own (bad request, upstream failures).
public enum BooksProblems {
    /// The domain's problem (`BooksProblem`: slug, title, detail) as an almanac problem: 400
    /// for malformed input, 404 for a missing book or cover.
    public static func problem(_ problem: BooksProblem) -> Problem {
        Problem(status: problem.kind == .malformed ? .badRequest : .notFound, slug: problem.slug,
                title: problem.title, detail: problem.detail)
    }

    /// The problem document's bytes, for the not-found answers `BooksService` caches.
    public static let encode: BooksProblem.Encoder = { problem($0).jsonBytes }

    public static func badRequest(_ detail: String) -> Problem {
        Problem(status: .badRequest, slug: "bad-request", detail: detail)
    }

    /// Upstream failures: 504 when every provider timed out, else 502. Each failure was logged
    /// when it happened (`UpstreamFailureLog`) under the request id the detail names.
    public static func problem(for error: any Error, requestID: String = "", logger: Logger? = nil) -> Problem {
        switch error {
        case let unavailable as ProvidersUnavailable:
            return ProvidersUnavailableProblem.problem(unavailable, requestID: requestID)
        case let upstream as UpstreamError:
            return UpstreamProblem.problem(for: upstream, requestID: requestID)
        case is CancellationError:
            return Problem(status: .serviceUnavailable, slug: "cancelled",
                           detail: "The lookup was cancelled; try again.")
        default:
            logger?.warn("book lookup failed", ["error": .string(String(describing: error))],
                         for: RequestLogContext(requestID: requestID, trace: TraceContext.current))
            return Problem(status: .badGateway, slug: "upstream-failed", title: "Upstream failed",
                           detail: "The book lookup failed" + (requestID.isEmpty ? "." : " (request id \(requestID))."))
        }
    }

    /// Parses an ISBN from a path segment or query value, or the 400 problem saying why not.
    static func parse(_ input: String) -> Result<ISBN, Problem> {
        BooksProblem.parse(input).mapError(problem)
    }

    /// Parses the ISBN of path placeholder `name` from its bytes (a missing one is the empty ISBN).
    static func parse(_ parameters: RouteParameters, _ name: String) -> Result<ISBN, Problem> {
        (parameters.withBytes(name) { BooksProblem.parse($0) } ?? BooksProblem.parse("")).mapError(problem)
    }
}
