/// What `RequestParser.next()` found in the bytes buffered so far.
public enum ParserEvent: Sendable {
    /// Nothing more can be parsed until more bytes are appended.
    case needMore
    /// Head complete for a request carrying `Expect: 100-continue` whose body has not fully arrived:
    /// the server may now send `100 Continue` (RFC 9110 §10.1.1). Reported once per request,
    /// and only for HTTP/1.1 requests that announce content.
    case expectContinue
    /// A complete request. `keepAlive` is false when the connection must close after the
    /// response (`Connection: close`, or HTTP/1.0 without `Connection: keep-alive`, RFC 9112 §9.3).
    case request(HTTPRequest, keepAlive: Bool)
    /// Terminal: the parser accepts nothing more; the server answers `status` and closes.
    case error(ParseError)
}

/// Where the parser stands between requests, so the server can pick the right deadline
/// (idle keep-alive, slow header, slow body).
public enum ParserPhase: Sendable {
    /// No byte of a next request is buffered.
    case idle
    /// Part of a request line or header section is buffered.
    case head
    /// The head is complete and the body (content or chunks and trailers) is arriving.
    case body
}
