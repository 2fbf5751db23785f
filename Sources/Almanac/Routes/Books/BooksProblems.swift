import Books
import HTTPClient
import HTTPServer
import Upstream

/// The problems (RFC 9457) the books endpoints answer with, in one place so their slugs and
/// wording stay consistent across `/v1/books`, the batch and the Google-compatible shape.
public enum BooksProblems {
    public static func invalidISBN(_ input: String, _ error: ISBNError) -> Problem {
        Problem(status: .badRequest, slug: "invalid-isbn", title: "Invalid ISBN",
                detail: "\(quoted(input)) is not a valid ISBN: \(error.description).")
    }

    /// Cached for `books.notFoundTtlSeconds` (docs/problems.md#book-not-found), so it carries cache headers.
    public static func bookNotFound(_ isbn: ISBN) -> Problem {
        Problem(status: .notFound, slug: "book-not-found", title: "Book not found",
                detail: "No configured provider knows ISBN \(isbn.isbn13).")
    }

    public static func noCover(_ isbn: ISBN) -> Problem {
        Problem(status: .notFound, slug: "cover-not-found", title: "Cover not found",
                detail: "No configured provider has a cover image for ISBN \(isbn.isbn13).")
    }

    public static func coverNotFound(_ isbn: ISBN) -> Problem {
        Problem(status: .notFound, slug: "cover-not-found", title: "Cover not found",
                detail: "The provider has no cover image for ISBN \(isbn.isbn13).")
    }

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
            logger?.warn("book lookup failed", ["error": .string(String(describing: error)), "request_id": .string(requestID)])
            return Problem(status: .badGateway, slug: "upstream-failed", title: "Upstream failed",
                           detail: "The book lookup failed" + (requestID.isEmpty ? "." : " (request id \(requestID))."))
        }
    }

    /// Client input echoed in a detail: shortened, so a 4 KiB path does not come back whole.
    static func quoted(_ input: String) -> String {
        "'\(EchoedInput.clipped(input))'"
    }

    /// Parses an ISBN from a path segment or query value, or the 400 problem saying why not.
    static func parse(_ input: String) -> Result<ISBN, Problem> {
        do {
            return .success(try ISBN(parsing: input))
        } catch {
            return .failure(invalidISBN(input, error))
        }
    }
}
