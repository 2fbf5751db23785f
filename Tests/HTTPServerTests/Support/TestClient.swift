#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation

/// A raw, blocking TCP client for end-to-end tests: it sends exact bytes (so tests can send
/// malformed or pipelined requests) and reads responses with a receive timeout, so no test
/// can hang on a server that never answers.
final class TestClient {
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

    /// Connects to `host:port` (IPv4 or IPv6 literal); reads time out after `timeout` seconds.
    init(port: Int, host: String = "127.0.0.1", timeout: Double = 10) throws {
        let isV6 = host.contains(":")
        fd = socket(isV6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
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
    }

    deinit { close(fd) }

    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "send: errno \(errno)") }
            offset += n
        }
    }

    /// A GET (or another method) with `Host`, plus `extra` header lines.
    func request(_ method: String = "GET", _ target: String, version: String = "HTTP/1.1",
                 extra: [String] = []) throws {
        var text = "\(method) \(target) \(version)\r\nHost: test\r\n"
        for line in extra { text += line + "\r\n" }
        try send(text + "\r\n")
    }

    func shutdownWrite() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Reads one response. `head: true` when it answers a HEAD request (no body follows).
    func readResponse(head: Bool = false) throws -> Response {
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
                    guard try fill() else { throw Failure(description: "EOF inside a body") }
                }
                let body = Array(buffer[(end + 4)..<total])
                buffer.removeSubrange(0..<total)
                return Response(version: String(statusLine[0]), status: status, headers: headers, body: body)
            }
            guard try fill() else { throw Failure(description: "EOF before a response (\(buffer.count) bytes buffered)") }
        }
    }

    /// True once the server closed the connection (EOF or reset) with no more bytes buffered
    /// from it; false when bytes arrive instead or the read times out.
    func isClosedByPeer() -> Bool {
        guard buffer.isEmpty else { return false }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n == 0 { return true }
        if n < 0 { return errno == ECONNRESET }
        buffer.append(contentsOf: chunk[0..<n])
        return false
    }

    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 {
            buffer.append(contentsOf: chunk[0..<n])
            return true
        }
        if n == 0 { return false }
        throw Failure(description: "recv: errno \(errno)")
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

/// Runs blocking socket work on a Dispatch thread, so tests never tie up the cooperative
/// pool that the server's `.pending` handlers need.
func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try body() })
        }
    }
}

extension TestClient: @unchecked Sendable {} // used by one test task at a time
