import Base
import HTTP1

/// Errors on `/books/v1/*` as Google writes them, so Google's own client libraries surface
/// almanac's actionable message ("… is not a valid ISBN: …") instead of a bare "Bad Request":
/// `{"error":{"code":400,"message":"…","errors":[{"message":"…","domain":"global","reason":"invalid"}],"status":"INVALID_ARGUMENT"}}`,
/// `Content-Type: application/json`. The problem's status, headers (`Cache-Control: no-store`,
/// `Retry-After`) and detail are kept; only the body's format changes. Everywhere else errors
/// stay problem+json (docs/problems.md).
enum GoogleErrorEnvelope {
    /// Google's `reason` and `status` for an HTTP status.
    static func names(for status: HTTPStatus) -> (reason: String, status: String) {
        switch status.code {
        case 400: ("invalid", "INVALID_ARGUMENT")
        case 404: ("notFound", "NOT_FOUND")
        case 405: ("methodNotAllowed", "INVALID_ARGUMENT")
        case 429: ("rateLimitExceeded", "RESOURCE_EXHAUSTED")
        case 500...599: ("backendError", "UNAVAILABLE")
        default: ("invalid", "INVALID_ARGUMENT")
        }
    }

    static func body(_ problem: Problem) -> [UInt8] {
        let (reason, status) = names(for: problem.status)
        var message = ""
        JSONText.appendString(problem.detail, to: &message)
        return Array(("{\"error\":{\"code\":\(problem.status.code),\"message\":" + message
            + ",\"errors\":[{\"message\":" + message + ",\"domain\":\"global\",\"reason\":\"" + reason
            + "\"}],\"status\":\"" + status + "\"}}").utf8)
    }

    /// The problem's response with Google's body and `application/json`.
    static func response(_ problem: Problem) -> HTTPResponse {
        var response = problem.response
        response.body = body(problem)
        response.headers.set("Content-Type", "application/json; charset=utf-8")
        return response
    }
}
