import HTTP1
import Web

/// A request the route cannot answer as asked, with no more specific slug: a missing or
/// malformed parameter, a `Host` no link can be written for. 400 `bad-request`, the detail
/// saying what to send instead.
struct InvalidRequest: ProblemConvertible, Sendable {
    let detail: String

    init(_ detail: String) { self.detail = detail }

    func problem(requestID: String) -> Problem {
        Problem(status: .badRequest, slug: "bad-request", detail: detail)
    }
}
