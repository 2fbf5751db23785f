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
///
/// What most requests never read is not made up front: `path` and `rawQuery` are cut from
/// the target when asked (`path` is the target itself when there is no query: no copy),
/// `queryItems` are decoded when asked, and a generated request id stays two integers until
/// something wants its text. A cached hit reads the path once and the rest not at all.
public struct HTTPRequest: Sendable {
    /// The method token as sent (case-sensitive, RFC 9110 §9.1), e.g. `GET`.
    public var method: String
    /// The raw request-target, e.g. `/v1/rates?base=EUR`.
    public var target: String
    /// `path[?query]` to route by: `target` itself but for an absolute-form target, whose
    /// path and query the parser passes here.
    private let routedTarget: String
    /// The UTF-8 offset of the first `?` in `routedTarget`, or -1 when there is none.
    private let queryMark: Int
    public var version: HTTPVersion
    /// Changing the fields after parsing makes `serverReadFields` unknown: it describes the
    /// fields as received.
    public var headers: HTTPHeaders {
        didSet { serverReadFields = .unknown }
    }
    public var body: [UInt8]
    /// The `X-Request-ID` the response will carry, as the server holds it (see `RequestID`).
    public var requestIDValue: RequestID
    /// When the server had the whole request, in monotonic nanoseconds
    /// (`DispatchTime.uptimeNanoseconds`); 0 for a request the server did not read (tests).
    /// Latency measured from here includes routing, and costs the handler no clock reading.
    public var receivedAt: UInt64 = 0
    /// Which of the fields the server reads for every request were sent, when the parser made
    /// this request (`ServerReadFields`).
    var serverReadFields: ServerReadFields

    public init(
        method: String, target: String, version: HTTPVersion = .http1_1,
        headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], requestID: String = ""
    ) {
        self.init(method: method, target: target, routedTarget: target, version: version,
                  headers: headers, body: body, serverReadFields: .unknown, requestID: .text(requestID))
    }

    /// A request as the parser completes it: `routedTarget` is the target's `path[?query]`
    /// (the target itself but for absolute-form), `serverReadFields` what the parser saw.
    /// `queryMark` is the first `?`'s offset in `routedTarget` (-1: none) when the caller found
    /// it already, nil to search for it here.
    init(method: String, target: String, routedTarget: String, queryMark: Int? = nil, version: HTTPVersion,
         headers: HTTPHeaders, body: [UInt8], serverReadFields: ServerReadFields, requestID: RequestID = "") {
        self.method = method
        self.target = target
        self.routedTarget = routedTarget
        self.queryMark = queryMark ?? HTTPRequest.queryMark(in: routedTarget)
        self.version = version
        self.headers = headers
        self.body = body
        self.requestIDValue = requestID
        self.serverReadFields = serverReadFields
    }

    /// The path part of the target, still percent-encoded (the router decodes segments).
    public var path: String {
        guard queryMark >= 0 else { return routedTarget }
        return String(routedTarget[..<routedTarget.utf8.index(routedTarget.startIndex, offsetBy: queryMark)])
    }

    /// The query string after `?`, still encoded, or "" when absent.
    public var rawQuery: String {
        guard queryMark >= 0 else { return "" }
        return String(routedTarget[routedTarget.utf8.index(routedTarget.startIndex, offsetBy: queryMark + 1)...])
    }

    /// Percent-decoded query items (`+` decodes to a space, as HTML forms send it), decoded on
    /// each read: read them once into a local when several are needed.
    public var queryItems: [QueryItem] {
        queryMark >= 0 ? QueryString.decode(rawQuery) : []
    }

    /// The `X-Request-ID` the response will carry: the client's if it was acceptable, else
    /// generated (its text is made on each read).
    public var requestID: String {
        get { requestIDValue.description }
        set { requestIDValue = .text(newValue) }
    }

    /// Whether the method is `HEAD` (compared on bytes, no `String` comparison).
    var isHead: Bool {
        method.utf8.count == 4 && method.utf8.elementsEqual("HEAD".utf8)
    }

    /// Every value of `field`, in order (`headers.values(for:)`), without reading any field
    /// when the parser saw none of that name go by (most requests carry none of them).
    public func values(of field: TrackedRequestField) -> [String] {
        serverReadFields.contains(field.bit) ? headers.values(for: field.name) : []
    }

    /// The first value of `field` (`headers[...]`), read only when the parser saw one.
    public func value(of field: TrackedRequestField) -> String? {
        serverReadFields.contains(field.bit) ? headers[field.name] : nil
    }

    /// The first value of the query parameter `name`, if present: `queryItems`' first match
    /// (names compared as bytes: "\u{212A}" == "K" as Strings), found without decoding every item.
    public func query(_ name: String) -> String? {
        queryMark >= 0 ? QueryString.firstValue(named: name, in: rawQuery) : nil
    }

    /// The UTF-8 offset of the first `?` of `target`, or -1. Searched in the string's own bytes
    /// when it has them (native strings do): the generic search over a UTF-8 view costs more.
    static func queryMark(in target: String) -> Int {
        let question = UInt8(ascii: "?")
        if let found = target.utf8.withContiguousStorageIfAvailable({ $0.firstIndex(of: question) }) {
            return found ?? -1
        }
        guard let index = target.utf8.firstIndex(of: question) else { return -1 }
        return target.utf8.distance(from: target.utf8.startIndex, to: index)
    }
}
