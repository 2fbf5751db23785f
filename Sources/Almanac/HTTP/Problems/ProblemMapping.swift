import Base
import HTTP1
import Web

/// How one family of routes tells clients about failures, the one place a request id is filled
/// in: a `ProblemConvertible` error becomes its problem (writing the warn line it owes);
/// cancellation and unexpected errors are worded for the family, and an unexpected error is
/// logged here, once, with the request's ids (`request_id`, and its trace when the answer is
/// made on the asynchronous path). The problem is written as the family's clients read errors:
/// problem+json, or Google's envelope under `/books/v1/`.
struct ProblemMapping: Sendable {
    /// The family's words for what it could not answer.
    struct Wording: Sendable {
        /// The start of an unexpected failure's detail ("Rates are unavailable"); the request id follows.
        var unavailable: String
        /// The detail of a cancelled answer.
        var cancelled: String
        /// The message of an unexpected failure's warn line.
        var logMessage: String
    }

    let wording: Wording
    /// Where unexpected failures and the lines failures owe are written (none in some tests).
    let logger: Logger?
    /// How a problem is sent: `Problem.response`, or `GoogleErrorEnvelope.response`.
    let write: @Sendable (Problem) -> HTTPResponse

    init(_ wording: Wording, logger: Logger?, write: @escaping @Sendable (Problem) -> HTTPResponse = { $0.response }) {
        self.wording = wording
        self.logger = logger
        self.write = write
    }

    static func rates(logger: Logger?) -> ProblemMapping {
        ProblemMapping(Wording(unavailable: "Rates are unavailable",
                               cancelled: "The request was cancelled before rates were available.",
                               logMessage: "rates failed"), logger: logger)
    }

    static func books(logger: Logger?) -> ProblemMapping {
        ProblemMapping(Wording(unavailable: "The book lookup failed", cancelled: "The lookup was cancelled; try again.",
                               logMessage: "book lookup failed"), logger: logger)
    }

    /// The same mapping, written in Google's error envelope (`/books/v1/`).
    var inGoogleEnvelope: ProblemMapping {
        ProblemMapping(wording, logger: logger, write: GoogleErrorEnvelope.response)
    }

    /// The problem for `error`, told to the client of request `requestID`.
    func problem(for error: any Error, requestID: String) -> Problem {
        switch error {
        case let known as any ProblemConvertible:
            if let logger { known.logAnswer(requestID: requestID, to: logger) }
            return known.problem(requestID: requestID)
        case is CancellationError:
            return Problem(status: .serviceUnavailable, slug: "cancelled", detail: wording.cancelled)
        default:
            logger?.warn(wording.logMessage, ["error": .string(String(describing: error))],
                         for: RequestLogContext(requestID: requestID, trace: TraceContext.current))
            return Problem(status: .badGateway, slug: "upstream-failed", title: "Upstream failed",
                           detail: wording.unavailable + (requestID.isEmpty ? "." : " (request id \(requestID))."))
        }
    }

    /// The response telling `request`'s client about `error`.
    func response(for error: any Error, _ request: HTTPRequest) -> HTTPResponse {
        write(problem(for: error, requestID: request.requestID))
    }

    /// Whether answering `error` writes a warn line: an unexpected error always does.
    func writesWarnLine(_ error: any Error) -> Bool {
        switch error {
        case let known as any ProblemConvertible: known.writesWarnLine
        case is CancellationError: false
        default: true
        }
    }
}
