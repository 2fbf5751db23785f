/// Size limits the request parser enforces while bytes arrive, never after buffering.
///
/// Each limit answers with the status RFC 9110 assigns to it, so a client learns which
/// part of its request was too large: the request line (414, RFC 9110 §15.5.15), the
/// header section (431, RFC 6585 §5) or the content (413, RFC 9110 §15.5.14).
/// A value exactly at a limit is accepted; one byte (or field) over it is refused.
public struct RequestParserLimits: Sendable {
    /// Longest request line, counted without its CRLF. Over it: 414.
    public var maxRequestLineBytes: Int
    /// Largest header section: every field line with its CRLF, not the request line and
    /// not the empty line that ends the section. Trailer fields of a chunked body count
    /// toward the same budget. Over it: 431.
    public var maxHeaderBytes: Int
    /// Most field lines in the header section (trailer fields included). Over it: 431.
    public var maxHeaderFields: Int
    /// Largest content, declared (`Content-Length`) or decoded (chunked). Over it: 413.
    public var maxBodyBytes: Int
    /// Budget for chunk extensions (`;name=value` after a chunk size) over one whole
    /// message: extensions carry no meaning here, so they must not cost unbounded work
    /// (the lesson of CVE-2024-22019 in Node's llhttp). Over it: 413.
    public var maxChunkExtensionBytes: Int = 16384

    public init(maxRequestLineBytes: Int = 8192, maxHeaderBytes: Int = 16384, maxHeaderFields: Int = 100, maxBodyBytes: Int = 65536) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderFields = maxHeaderFields
        self.maxBodyBytes = maxBodyBytes
    }
}
