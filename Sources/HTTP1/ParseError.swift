/// Why a request could not be parsed, as the status the server answers before it closes.
///
/// `detail` is written for the person debugging the client: it names the rule that was
/// broken, never echoes raw request bytes (they may hold secrets or control characters).
public struct ParseError: Error, Sendable, Equatable {
    /// 400, 413, 414, 417, 431, 501 or 505.
    public var status: HTTPStatus
    public var detail: String

    /// 400: the bytes do not follow the HTTP/1.1 grammar (RFC 9112).
    static func badRequest(_ detail: String) -> ParseError {
        ParseError(status: .badRequest, detail: detail)
    }
}
