import Base

/// Where and how to connect: `redis://[user:password@]host[:port][/db]`, or `rediss://…` for
/// Redis over TLS (how TLS is verified is `RedisTLSConfiguration`'s business).
///
/// - `user` and `password` may be percent-encoded (`%40` for `@`); a password alone
///   (`redis://:secret@host`) authenticates as Redis's `default` user. A user without a
///   password is refused: Redis has no such login.
/// - `host` is a name, an IPv4 address, or an IPv6 address in brackets; `port` defaults to 6379;
///   `db` (the `SELECT` index) to 0.
/// - Query strings and fragments are refused rather than silently ignored.
///
/// The password is a secret: `description` shows it as `Redactor.mask` (`***`), and no error
/// this type throws quotes the URL.
public struct RedisURL: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var user: [UInt8]?
    public var password: [UInt8]?
    public var database: Int
    /// `rediss://`: the connection speaks TLS.
    public var tls: Bool

    public static let defaultPort = 6379

    public init(host: String, port: Int = RedisURL.defaultPort, user: [UInt8]? = nil, password: [UInt8]? = nil,
                database: Int = 0, tls: Bool = false) {
        self.tls = tls
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
    }

    public init(parsing text: String) throws(RedisURLError) {
        let bytes = Array(text.utf8)
        let plain = Array("redis://".utf8)
        let secure = Array("rediss://".utf8)
        let scheme: [UInt8]
        if Self.startsCaseInsensitively(bytes, with: plain) {
            scheme = plain
        } else if Self.startsCaseInsensitively(bytes, with: secure) {
            scheme = secure
        } else {
            throw RedisURLError("must start with redis:// or rediss://")
        }
        tls = scheme == secure
        var rest = bytes[scheme.count...]
        if rest.contains(UInt8(ascii: "?")) || rest.contains(UInt8(ascii: "#")) {
            throw RedisURLError("query strings and fragments are not supported")
        }
        // Authority ends at the first "/" after the last "@" (a password may hold "/" only encoded).
        var userInfo: ArraySlice<UInt8>?
        if let at = rest.lastIndex(of: UInt8(ascii: "@")) {
            userInfo = rest[rest.startIndex..<at]
            rest = rest[(at + 1)...]
        }
        let slash = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
        let hostPort = rest[rest.startIndex..<slash]
        let path = rest[slash...]

        user = nil
        password = nil
        if let userInfo {
            if let colon = userInfo.firstIndex(of: UInt8(ascii: ":")) {
                let name = userInfo[userInfo.startIndex..<colon]
                guard let decodedName = PercentDecoding.decode(name),
                      let decodedPassword = PercentDecoding.decode(userInfo[(colon + 1)...]) else {
                    throw RedisURLError("bad percent-encoding in the user or password")
                }
                user = decodedName.isEmpty ? nil : decodedName
                password = decodedPassword
            } else {
                throw RedisURLError("a user needs a password (redis://user:password@host)")
            }
            if password?.isEmpty ?? true { throw RedisURLError("the password is empty") }
        }

        // Host and port.
        var hostBytes: ArraySlice<UInt8>
        var portBytes: ArraySlice<UInt8>?
        if hostPort.first == UInt8(ascii: "[") {
            guard let close = hostPort.firstIndex(of: UInt8(ascii: "]")) else { throw RedisURLError("unterminated [IPv6] host") }
            hostBytes = hostPort[(hostPort.startIndex + 1)..<close]
            let after = hostPort[(close + 1)...]
            if !after.isEmpty {
                guard after.first == UInt8(ascii: ":") else { throw RedisURLError("junk after the [IPv6] host") }
                portBytes = after.dropFirst()
            }
            guard !hostBytes.isEmpty, hostBytes.allSatisfy({ Self.isHex($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }) else {
                throw RedisURLError("invalid IPv6 host")
            }
        } else {
            if let colon = hostPort.firstIndex(of: UInt8(ascii: ":")) {
                hostBytes = hostPort[hostPort.startIndex..<colon]
                portBytes = hostPort[(colon + 1)...]
            } else {
                hostBytes = hostPort
            }
            guard !hostBytes.isEmpty, hostBytes.count <= 253,
                  hostBytes.allSatisfy({ Self.isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") }) else {
                throw RedisURLError("invalid or missing host")
            }
        }
        host = String(decoding: hostBytes, as: UTF8.self)
        if let portBytes {
            guard let value = Self.decimal(portBytes, max: 65535), value >= 1 else { throw RedisURLError("port must be 1…65535") }
            port = value
        } else {
            port = Self.defaultPort
        }

        // Database.
        if path.count <= 1 {
            database = 0
        } else {
            guard let value = Self.decimal(path.dropFirst(), max: 1_000_000) else {
                throw RedisURLError("the database must be a number (redis://host/0)")
            }
            database = value
        }
    }

    /// `redis://user:***@host:port/db`: what logs, errors and the configuration dump show.
    public var description: String {
        var text = tls ? "rediss://" : "redis://"
        if password != nil {
            if let user { text += String(decoding: user, as: UTF8.self) }
            text += ":" + Redactor.mask + "@"
        }
        text += host.contains(":") ? "[\(host)]" : host
        text += ":\(port)/\(database)"
        return text
    }

    // MARK: - Bytes

    private static func startsCaseInsensitively(_ bytes: [UInt8], with prefix: [UInt8]) -> Bool {
        bytes.count >= prefix.count && zip(bytes, prefix).allSatisfy { ASCIICase.lowercased($0) == $1 }
    }
    private static func isHex(_ byte: UInt8) -> Bool { PercentDecoding.hexValue(byte) != nil }
    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
    }

    private static func decimal(_ bytes: ArraySlice<UInt8>, max: Int) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 7 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= 48 && byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return value <= max ? value : nil
    }
}

/// A `cache.redis.url` that cannot be used; the message never contains the URL or its password.
public struct RedisURLError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { "invalid Redis URL: \(message)" }
}
