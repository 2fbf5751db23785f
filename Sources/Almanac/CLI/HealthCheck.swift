import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `almanac healthcheck`: one blocking HTTP/1.1 GET over a plain POSIX socket with a single
/// overall deadline, so the Docker image needs no curl and a hung server cannot hang the
/// probe. Only `http://` URLs: the probe talks to the local process, never through TLS.
public enum HealthCheck {
    public struct Configuration: Sendable {
        /// The whole probe (resolve, connect, send, read the status line) must fit. Default 2 s.
        public var deadlineSeconds: Double = 2
        public init(deadlineSeconds: Double = 2) { self.deadlineSeconds = deadlineSeconds }
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case invalidURL(String)
        case unreachable(String)
        case timedOut
        case badResponse(String)
        case status(Int)

        public var description: String {
            switch self {
            case let .invalidURL(why): "invalid URL: \(why)"
            case let .unreachable(why): "cannot connect: \(why)"
            case .timedOut: "no answer within the deadline"
            case let .badResponse(why): "malformed response: \(why)"
            case let .status(code): "answered \(code), not 200"
            }
        }
    }

    struct Target: Equatable {
        var host: String
        var port: Int
        var path: String
    }

    /// The URL the probe uses when none is given: the configured port on loopback (a
    /// wildcard bind address is not something to connect to).
    public static func defaultURL(for configuration: AlmanacConfiguration) -> String {
        let host = configuration.server.http.host
        let target: String =
            switch host {
            case "0.0.0.0", "": "127.0.0.1"
            case "::", "[::]": "[::1]"
            default: host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
            }
        return "http://\(target):\(configuration.server.http.port)/healthz"
    }

    /// Returns nil when the server answered 200.
    public static func probe(url: String, configuration: Configuration = Configuration()) -> Failure? {
        let target: Target
        switch parse(url) {
        case let .success(t): target = t
        case let .failure(f): return f
        }
        let deadline = Date().addingTimeInterval(configuration.deadlineSeconds)
        return perform(target, deadline: deadline)
    }

    static func parse(_ url: String) -> Result<Target, Failure> {
        guard let c = URLComponents(string: url) else { return .failure(.invalidURL("cannot parse \(url)")) }
        guard c.scheme?.lowercased() == "http" else { return .failure(.invalidURL("only http:// URLs are supported")) }
        guard let host = c.host, !host.isEmpty else { return .failure(.invalidURL("no host")) }
        let port = c.port ?? 80
        guard (1...65535).contains(port) else { return .failure(.invalidURL("port out of range")) }
        var path = c.percentEncodedPath.isEmpty ? "/" : c.percentEncodedPath
        if let q = c.percentEncodedQuery { path += "?" + q }
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        return .success(Target(host: bare, port: port, path: path))
    }

    private static func perform(_ target: Target, deadline: Date) -> Failure? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(target.host, String(target.port), &hints, &list)
        guard rc == 0, let first = list else {
            return .unreachable("cannot resolve \(target.host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(list) }

        var lastError = "no address"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let ai = candidate {
            candidate = ai.pointee.ai_next
            let fd = socket(ai.pointee.ai_family, ai.pointee.ai_socktype | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), ai.pointee.ai_protocol)
            guard fd >= 0 else { lastError = String(cString: strerror(errno)); continue }
            defer { close(fd) }
            if connect(fd, ai.pointee.ai_addr, ai.pointee.ai_addrlen) != 0 {
                guard errno == EINPROGRESS else { lastError = String(cString: strerror(errno)); continue }
                guard wait(fd, for: Int16(POLLOUT), until: deadline) else { return .timedOut }
                var soError: Int32 = 0
                var len = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &len)
                guard soError == 0 else { lastError = String(cString: strerror(soError)); continue }
            }
            return exchange(fd, target, deadline: deadline)
        }
        return .unreachable(lastError)
    }

    private static func exchange(_ fd: Int32, _ target: Target, deadline: Date) -> Failure? {
        let hostHeader = target.host.contains(":") ? "[\(target.host)]:\(target.port)" : "\(target.host):\(target.port)"
        let request = Array("GET \(target.path) HTTP/1.1\r\nHost: \(hostHeader)\r\nUser-Agent: almanac-healthcheck/\(AlmanacVersion.string)\r\nAccept: */*\r\nConnection: close\r\n\r\n".utf8)
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 { sent += n; continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                guard wait(fd, for: Int16(POLLOUT), until: deadline) else { return .timedOut }
                continue
            }
            return .unreachable("send failed: \(String(cString: strerror(errno)))")
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while !received.contains(UInt8(ascii: "\n")) {
            guard received.count < 8192 else { return .badResponse("no status line in 8 KiB") }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { received.append(contentsOf: buffer[0..<n]); continue }
            if n == 0 { break }
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                guard wait(fd, for: Int16(POLLIN), until: deadline) else { return .timedOut }
                continue
            }
            return .unreachable("receive failed: \(String(cString: strerror(errno)))")
        }
        return statusFailure(statusLine: received)
    }

    /// nil for `HTTP/1.x 200 …`, else why not.
    static func statusFailure(statusLine bytes: [UInt8]) -> Failure? {
        let line = String(decoding: bytes.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        let parts = line.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let code = Int(parts[1]), parts[1].count == 3 else {
            return .badResponse(line.isEmpty ? "connection closed without a status line" : "unexpected status line")
        }
        return code == 200 ? nil : .status(code)
    }

    /// Polls until `events` or the deadline; false on timeout or error.
    private static func wait(_ fd: Int32, for events: Int16, until deadline: Date) -> Bool {
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return false }
            var p = pollfd(fd: fd, events: events, revents: 0)
            let rc = poll(&p, 1, Int32(max(1, (remaining * 1000).rounded(.up))))
            if rc > 0 { return true }
            if rc == 0 { return false }
            if errno != EINTR { return false }
        }
    }
}
