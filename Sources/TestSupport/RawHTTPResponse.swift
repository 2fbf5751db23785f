/// One HTTP/1.1 response as `RawHTTPClient` read it off the wire.
public struct RawHTTPResponse: Sendable {
    /// The status line's protocol version, e.g. `HTTP/1.1`.
    public var version: String
    public var status: Int
    /// Header fields in wire order, names as sent, values trimmed of surrounding whitespace.
    public var headers: [(String, String)]
    /// The body (empty for HEAD, 1xx, 204 and 304 answers).
    public var body: [UInt8]

    public init(version: String = "HTTP/1.1", status: Int, headers: [(String, String)], body: [UInt8]) {
        self.version = version
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body decoded as UTF-8.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The first value of the header `name` (compared case-insensitively).
    public func header(_ name: String) -> String? {
        let name = name.lowercased()
        return headers.first { $0.0.lowercased() == name }?.1
    }

    /// Every value of the header `name` (compared case-insensitively), in wire order.
    public func headerValues(_ name: String) -> [String] {
        let name = name.lowercased()
        return headers.filter { $0.0.lowercased() == name }.map(\.1)
    }
}
