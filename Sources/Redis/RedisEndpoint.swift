/// A `host:port` without anything else: a sentinel from `cache.redis.sentinels`, or the primary a
/// sentinel named. The host follows `RedisURL`'s grammar (a name, IPv4, or `[IPv6]`); the port
/// is required.
public struct RedisEndpoint: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `host:port` as an operator writes it; nil for anything else (no scheme, user, path).
    public init?(parsing text: String) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 300,
              !bytes.contains(UInt8(ascii: "/")), !bytes.contains(UInt8(ascii: "@")),
              let last = bytes.lastIndex(of: UInt8(ascii: ":")), last > 0,
              // The port is required: after a bracketed IPv6 host, the colon must follow "]".
              bytes.first != UInt8(ascii: "[") || bytes[last - 1] == UInt8(ascii: "]"),
              let url = try? RedisURL(parsing: "redis://" + text) else { return nil }
        host = url.host
        port = url.port
    }

    /// `127.0.0.1:26379`, `[::1]:26379`.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
