/// The HTTP protocol version of a message (RFC 9110 §2.5). Only 1.0 and 1.1 are served.
public struct HTTPVersion: Sendable, Equatable, CustomStringConvertible {
    public var major: Int
    public var minor: Int
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)
    public var description: String { "HTTP/\(major).\(minor)" }
}

/// A percent-decoded query parameter (`?name=value`), in the order it was sent.
public struct QueryItem: Sendable, Equatable {
    public var name: String
    public var value: String
}

/// A complete, validated request as handlers see it.
///
/// The parser guarantees the framing is sound (RFC 9112 §6) before a handler runs,
/// so handlers only deal with meaning: method, path, query and headers.
public struct HTTPRequest: Sendable {
    /// The method token as sent (case-sensitive, RFC 9110 §9.1), e.g. `GET`.
    public var method: String
    /// The raw request-target, e.g. `/v1/rates?base=EUR`.
    public var target: String
    /// The path part of the target, still percent-encoded (the router decodes segments).
    public var path: String
    /// The query string after `?`, still encoded, or "" when absent.
    public var rawQuery: String
    /// Percent-decoded query items (`+` decodes to a space, as HTML forms send it).
    public var queryItems: [QueryItem]
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The `X-Request-ID` the response will carry: the client's if it was acceptable, else generated.
    public var requestID: String
    /// When the server had the whole request, in monotonic nanoseconds
    /// (`DispatchTime.uptimeNanoseconds`); 0 for a request the server did not read (tests).
    /// Latency measured from here includes routing, and costs the handler no clock reading.
    public var receivedAt: UInt64 = 0

    public init(
        method: String, target: String, version: HTTPVersion = .http1_1,
        headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], requestID: String = ""
    ) {
        self.method = method
        self.target = target
        let (path, query) = HTTPRequest.splitTarget(target)
        self.path = path
        self.rawQuery = query
        self.queryItems = QueryString.decode(query)
        self.version = version
        self.headers = headers
        self.body = body
        self.requestID = requestID
    }

    /// The first value of the query parameter `name`, if present.
    public func query(_ name: String) -> String? {
        queryItems.first { $0.name.utf8.elementsEqual(name.utf8) }?.value // bytes: "\u{212A}" == "K" as Strings
    }

    static func splitTarget(_ target: String) -> (path: String, query: String) {
        // Searched in the string's own bytes when it has them (native strings do): the generic
        // search over a UTF-8 view costs more than the rest of the split.
        let question = UInt8(ascii: "?")
        let offset = target.utf8.withContiguousStorageIfAvailable { $0.firstIndex(of: question) }
        let found: String.Index?
        if let offset {
            found = offset.map { target.utf8.index(target.utf8.startIndex, offsetBy: $0) }
        } else {
            found = target.utf8.firstIndex(of: question)
        }
        guard let q = found else { return (target, "") }
        let path = String(target[..<q])
        let query = String(target[target.index(after: q)...])
        return (path, query)
    }
}
