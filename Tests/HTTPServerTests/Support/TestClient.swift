#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation

/// A raw TCP client for end-to-end tests: it sends exact bytes (so tests can send malformed
/// or pipelined requests) and reads responses against a deadline, so no test can hang on a
/// server that never answers. The socket is non-blocking and waits are `Task.sleep` polls:
/// the cooperative pool, which the server's `.pending` handlers need, is never blocked, and
/// expectations stay inside the test's task (so failures are attributed to their test).
final class TestClient: @unchecked Sendable { // used by one test task at a time
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A response as read off the wire.
    struct Response {
        var version: String
        var status: Int
        var headers: [(String, String)]
        var body: [UInt8]
        var bodyText: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
    }

    let fd: Int32
    private var buffer: [UInt8] = []
    private let timeout: Double

    /// Connects to `host:port` (IPv4 or IPv6 literal); reads time out after `timeout` seconds.
    init(port: Int, host: String = "127.0.0.1", timeout: Double = 10) throws {
        let isV6 = host.contains(":")
        fd = socket(isV6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        self.timeout = timeout
        let rc: Int32
        if isV6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET6, host, &address.sin6_addr)
            rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, host, &address.sin_addr)
            rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard rc == 0 else {
            let err = errno
            close(fd)
            throw Failure(description: "connect: errno \(err)")
        }
        _ = fcntl(fd, F_SETFL, O_NONBLOCK)
    }

    deinit { close(fd) }

    func send(_ text: String) async throws {
        try await send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) async throws {
        let deadline = Self.deadline(timeout)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if n > 0 {
                offset += n
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                try await Self.pause(until: deadline, "send")
            } else {
                throw Failure(description: "send: errno \(errno)")
            }
        }
    }

    /// A GET (or another method) with `Host`, plus `extra` header lines.
    func request(_ method: String = "GET", _ target: String, version: String = "HTTP/1.1",
                 extra: [String] = []) async throws {
        var text = "\(method) \(target) \(version)\r\nHost: test\r\n"
        for line in extra { text += line + "\r\n" }
        try await send(text + "\r\n")
    }

    func shutdownWrite() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Reads one response. `head: true` when it answers a HEAD request (no body follows).
    func readResponse(head: Bool = false) async throws -> Response {
        let deadline = Self.deadline(timeout)
        while true {
            if let end = headEnd() {
                let headText = String(decoding: buffer[0..<end], as: UTF8.self)
                var lines = headText.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
                guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
                    throw Failure(description: "bad status line in \(headText)")
                }
                var headers: [(String, String)] = []
                for line in lines where !line.isEmpty {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers.append((String(line[..<colon]),
                                    String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
                }
                let hasBody = !head && status >= 200 && status != 204 && status != 304
                let length = hasBody ? Int(headers.first { $0.0.lowercased() == "content-length" }?.1 ?? "0") ?? 0 : 0
                let total = end + 4 + length
                while buffer.count < total {
                    guard try await fill(until: deadline) else { throw Failure(description: "EOF inside a body") }
                }
                let body = Array(buffer[(end + 4)..<total])
                buffer.removeSubrange(0..<total)
                return Response(version: String(statusLine[0]), status: status, headers: headers, body: body)
            }
            guard try await fill(until: deadline) else {
                throw Failure(description: "EOF before a response (\(buffer.count) bytes buffered)")
            }
        }
    }

    /// Reads whatever arrives next (at least one byte), e.g. the start of a large body.
    func readSome() async throws {
        _ = try await fill(until: Self.deadline(timeout))
    }

    /// True once the server closed the connection (EOF or reset) with no more bytes from it;
    /// false when bytes arrive instead or nothing happens before the deadline.
    func isClosedByPeer() async -> Bool {
        guard buffer.isEmpty else { return false }
        do {
            return try await fill(until: Self.deadline(timeout)) == false
        } catch let failure as Failure where failure.description == "reset" {
            return true
        } catch {
            return false
        }
    }

    /// Appends what arrives; false on EOF. Throws on timeout, and `reset` on ECONNRESET.
    private func fill(until deadline: UInt64) async throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
                return true
            }
            if n == 0 { return false }
            switch errno {
            case EAGAIN, EWOULDBLOCK: try await Self.pause(until: deadline, "recv")
            case ECONNRESET: throw Failure(description: "reset")
            default: throw Failure(description: "recv: errno \(errno)")
            }
        }
    }

    private static func deadline(_ seconds: Double) -> UInt64 {
        DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    }

    private static func pause(until deadline: UInt64, _ what: String) async throws {
        guard DispatchTime.now().uptimeNanoseconds < deadline else { throw Failure(description: "\(what) timed out") }
        try await Task.sleep(nanoseconds: 500_000)
    }

    private func headEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4)
        where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }
}

/// Waits for `condition` with a deadline (never a fixed sleep-and-hope).
func waitUntil(timeout: Double = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
    while DispatchTime.now().uptimeNanoseconds < deadline {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 2_000_000)
    }
    return condition()
}

