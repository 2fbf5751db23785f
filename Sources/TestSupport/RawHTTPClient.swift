import Glibc
import Foundation

/// A raw-socket HTTP/1.1 client for end-to-end tests.
///
/// It sends exact bytes (so tests can send malformed or pipelined requests) and reads responses
/// against a deadline, so no test can hang on a server that never answers. The socket is
/// non-blocking and every wait is a short `Task.sleep` nap (see `TestDeadline.pause`): the
/// cooperative pool, which a server's pending handlers need, is never blocked, and expectations
/// stay inside the test's task (so failures are attributed to their test).
///
/// Use one client from one task at a time.
public final class RawHTTPClient: @unchecked Sendable {
    public typealias Response = RawHTTPResponse

    /// Why a connection, send or read failed: `refused`, `reset`, "… timed out", "EOF …", ….
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }

        /// The peer reset the connection (ECONNRESET).
        public static let reset = Failure(description: "reset")
        /// A deadline passed while waiting to `what` ("send", "recv").
        public static func timedOut(_ what: String) -> Failure { Failure(description: "\(what) timed out") }

        /// True for `reset`.
        public var isReset: Bool { description == Self.reset.description }
        /// True for a passed deadline.
        public var isTimeout: Bool { description.hasSuffix(" timed out") }
    }

    /// The socket descriptor (for socket options in tests); closed exactly once, by `deinit`.
    public let fd: Int32
    private var buffer: [UInt8] = []
    private let timeout: Double

    /// Connects to `host:port` (an IPv4 or IPv6 literal); every send and read gives up after
    /// `timeout` seconds. Throws `Failure` "refused" when nothing listens there.
    public init(port: Int, host: String = "127.0.0.1", timeout: Double = 10) throws {
        // Connected before any stored property is set: were `init` to throw after that,
        // `deinit` would run and close the descriptor a second time — by then perhaps a
        // number another test's socket was given.
        fd = try Self.connected(host: host, port: port)
        self.timeout = timeout
    }

    /// A non-blocking socket connected to `host:port`; closed again when connecting fails.
    private static func connected(host: String, port: Int) throws -> Int32 {
        let isV6 = host.contains(":")
        let fd = socket(isV6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        let rc: Int32? // nil: `host` is not an address literal of its family
        if isV6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            let parsed = inet_pton(AF_INET6, host, &address.sin6_addr)
            rc = parsed == 1 ? connect(fd, to: &address) : nil
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            let parsed = inet_pton(AF_INET, host, &address.sin_addr)
            rc = parsed == 1 ? connect(fd, to: &address) : nil
        }
        guard let rc else {
            Glibc.close(fd)
            throw Failure(description: "not an IP address literal: \(host)")
        }
        guard rc == 0 else {
            let code = errno
            Glibc.close(fd)
            throw Failure(description: code == ECONNREFUSED ? "refused" : "connect: errno \(code)")
        }
        _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        return fd
    }

    /// `connect(2)` to a `sockaddr_in` or `sockaddr_in6`.
    private static func connect<Address>(_ fd: Int32, to address: inout Address) -> Int32 {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<Address>.size))
            }
        }
    }

    deinit { Glibc.close(fd) }

    // MARK: Sending

    /// Sends `text` as UTF-8, exactly as given.
    public func send(_ text: String) async throws { try await send(Array(text.utf8)) }

    /// Sends `bytes` exactly as given, waiting (up to the timeout) while the socket is full.
    public func send(_ bytes: [UInt8]) async throws {
        let deadline = TestDeadline(seconds: timeout)
        var nap: UInt64 = 250_000
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if n > 0 {
                offset += n
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                try await deadline.pause("send", nap: &nap)
            } else {
                throw Failure(description: "send: errno \(errno)")
            }
        }
    }

    /// The header lines every `requestText` carries before its `extra` lines.
    public static let standardHeaders = ["Host: 127.0.0.1"]

    /// The bytes of a request without a body: request line, `standardHeaders`, then `extra`
    /// header lines (each without its CRLF). Concatenate several to pipeline them.
    public static func requestText(_ method: String, _ target: String, version: String = "HTTP/1.1",
                                   extra: [String] = []) -> String {
        var text = "\(method) \(target) \(version)\r\n"
        for line in standardHeaders + extra { text += line + "\r\n" }
        return text + "\r\n"
    }

    /// Sends one request without a body (see `requestText`).
    public func request(_ method: String = "GET", _ target: String, version: String = "HTTP/1.1",
                        extra: [String] = []) async throws {
        try await send(Self.requestText(method, target, version: version, extra: extra))
    }

    /// Half-closes the connection: no more bytes are sent, the server's answers can still be read.
    public func shutdownWrite() { _ = Glibc.shutdown(fd, Int32(SHUT_WR)) }

    /// Shuts the socket down both ways now (the descriptor itself is released by `deinit`).
    public func close() { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }

    // MARK: Reading

    /// Reads the next response, framed by `Content-Length` (absent means no body). `head: true`
    /// when it answers a HEAD request: the head only, no body follows. Throws on a malformed
    /// head, on EOF before the response is complete, and when the timeout passes.
    public func readResponse(head: Bool = false) async throws -> RawHTTPResponse {
        let deadline = TestDeadline(seconds: timeout)
        while true {
            if let end = headEnd() {
                let headText = String(decoding: buffer[0..<end], as: UTF8.self)
                var lines = headText.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
                guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
                    throw Failure(description: "bad status line in \(headText)")
                }
                var headers: [(String, String)] = []
                for line in lines where !line.isEmpty {
                    guard let colon = line.firstIndex(of: ":") else { throw Failure(description: "bad header line \(line)") }
                    headers.append((String(line[..<colon]),
                                    String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
                }
                let hasBody = !head && status >= 200 && status != 204 && status != 304
                let lengthText = headers.first { $0.0.lowercased() == "content-length" }?.1
                let length = hasBody ? Int(lengthText ?? "0") ?? 0 : 0
                let total = end + 4 + length
                while buffer.count < total {
                    guard try await fill(deadline) else { throw Failure(description: "EOF inside a body") }
                }
                let body = Array(buffer[(end + 4)..<total])
                buffer.removeSubrange(0..<total)
                return RawHTTPResponse(version: String(statusLine[0]), status: status, headers: headers, body: body)
            }
            guard try await fill(deadline) else {
                throw Failure(description: buffer.isEmpty ? "EOF" : "EOF before a complete response (\(buffer.count) bytes)")
            }
        }
    }

    /// Reads `count` pipelined responses, in order (none of them to a HEAD request).
    public func readResponses(_ count: Int) async throws -> [RawHTTPResponse] {
        var responses: [RawHTTPResponse] = []
        for _ in 0..<count { responses.append(try await readResponse()) }
        return responses
    }

    /// Reads whatever arrives next (at least one byte, or EOF), e.g. the start of a large body.
    public func readSome() async throws {
        _ = try await fill(TestDeadline(seconds: timeout))
    }

    /// Bytes received but not yet consumed by `readResponse` (none after a HEAD answer).
    public var unread: Int { buffer.count }

    /// True when nothing more arrives within `seconds` (e.g. after HEAD: no stray body bytes).
    public func receivesNothing(within seconds: Double) async throws -> Bool {
        do {
            return try await fill(TestDeadline(seconds: seconds)) == false ? buffer.isEmpty : false
        } catch let failure as Failure where failure.isTimeout {
            return buffer.isEmpty
        }
    }

    /// True when the server closes the connection (EOF or reset) within `seconds` (the client's
    /// timeout when nil) with no further bytes first; false when bytes arrive instead or nothing
    /// happens in time.
    public func isClosedByPeer(within seconds: Double? = nil) async -> Bool {
        guard buffer.isEmpty else { return false }
        do {
            return try await fill(TestDeadline(seconds: seconds ?? timeout)) == false
        } catch let failure as Failure {
            return failure.isReset
        } catch {
            return false
        }
    }

    /// Appends what arrives; false on EOF. Throws on timeout, and `Failure.reset` on ECONNRESET.
    private func fill(_ deadline: TestDeadline) async throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var nap: UInt64 = 250_000
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
                return true
            }
            if n == 0 { return false }
            switch errno {
            case EAGAIN, EWOULDBLOCK: try await deadline.pause("recv", nap: &nap)
            case ECONNRESET: throw Failure.reset
            default: throw Failure(description: "recv: errno \(errno)")
            }
        }
    }

    /// The offset of the CRLFCRLF that ends the buffered head, if it has arrived.
    private func headEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4)
        where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }
}
