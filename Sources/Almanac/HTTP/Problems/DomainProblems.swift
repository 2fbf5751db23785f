import Books
import HTTPClient
import HTTP1
import Web
import Rates
import Upstream

// How each domain's errors become problems, said once per error type (`ProblemConvertible`).
// The domains describe their failures (kind, slug, detail) without knowing HTTP; the status
// and the problem type are decided here.

/// Client input on a rates or history route: 400 malformed, 404 a currency the table (or that
/// day) lacks; a currency the provider listed without a usable rate is that provider's 502.
extension RatesInputError: ProblemConvertible {
    func problem(requestID: String) -> Problem {
        switch kind {
        case .malformed: return Problem(status: .badRequest, slug: slug, detail: detail)
        case .unknownCurrency: return Problem(status: .notFound, slug: slug, detail: detail)
        case .unavailableCurrency:
            guard let upstream else { return Problem(status: .badGateway, slug: slug, detail: detail) }
            return UpstreamProblem.problem(for: upstream, requestID: requestID)
        }
    }

    /// The provider answered, but not this currency's rate: its table was stored, so this is
    /// logged when a client asks for the currency, not when it was fetched.
    var writesWarnLine: Bool { kind == .unavailableCurrency && upstream != nil }

    func logAnswer(requestID: String, to logger: Logger) {
        guard kind == .unavailableCurrency, let upstream else { return }
        UpstreamFailureLog.write(upstream, requestID: requestID, to: logger)
    }
}

/// The books domain's own problems: 400 for input that is not an ISBN, 404 for a missing book
/// or cover.
extension BooksProblem: ProblemConvertible {
    func problem(requestID: String) -> Problem {
        Problem(status: kind == .malformed ? .badRequest : .notFound, slug: slug, title: title, detail: detail)
    }
}

/// A search query that cannot be sent (no terms, a bad `maxResults`): 400.
extension VolumeSearchQuery.Invalid: ProblemConvertible {
    func problem(requestID: String) -> Problem { InvalidRequest(message).problem(requestID: requestID) }
}

/// One provider's failure, logged when it happened: 502, or 504 for a timeout.
extension UpstreamError: ProblemConvertible {
    func problem(requestID: String) -> Problem { UpstreamProblem.problem(for: self, requestID: requestID) }
}

/// A provider chain that produced no answer, each failure logged when it happened: 503 when a
/// provider was paused, else 502/504.
extension ProvidersUnavailable: ProblemConvertible {
    func problem(requestID: String) -> Problem { ProvidersUnavailableProblem.problem(self, requestID: requestID) }
}
