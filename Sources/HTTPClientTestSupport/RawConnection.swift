import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One accepted TCP connection of a `RawStubServer`, driven by the test's script on its own
/// thread with blocking-with-timeout socket calls. Scripts send exact bytes, so they can
/// produce any fault: garbage, short bodies, resets, silence, drips.
/// @unchecked Sendable: used only by the one thread that runs its script.
public final class RawConnection: @unchecked Sendable {
    public let fd: Int32
    private var buffer: [UInt8] = []
    private let server: RawStubServer
    private var isClosed = false

    init(fd: Int32, server: RawStubServer) {
        self.fd = fd
        self.server = server
    }

    /// Reads the next request head (through the blank line, request bodies are not expected).
    /// Returns nil when the peer closed, the server stopped, or `timeout` passed.
    public func readRequestHead(timeout: Double = 10) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let end = headEnd() {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 4)
                server.countRequest()
                return head
            }
            guard waitReadable(until: deadline) else { return nil }
            var chunk = [UInt8](repeating: 0, count: 16384)
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { return nil }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    /// Sends every byte; false when the peer is gone (the script should then stop).
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    @discardableResult
    public func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    /// Sends `bytes` one at a time with `interval` seconds between them (a drip-feeding server).
    @discardableResult
    public func drip(_ bytes: [UInt8], interval: Double) -> Bool {
        for byte in bytes {
            guard !server.isStopped, write([byte]) else { return false }
            Thread.sleep(forTimeInterval: interval)
        }
        return true
    }

    /// Aborts the connection with a TCP RST (SO_LINGER 0, then close).
    public func reset() {
        guard !isClosed else { return }
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close()
    }

    /// Closes the connection (FIN). Idempotent.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        server.close(fd)
    }

    /// Blocks until the peer closes the connection, the server stops, or `timeout` passes.
    /// Returns true when the peer closed (EOF or reset). Unread request bytes are discarded.
    @discardableResult
    public func waitForPeerClose(timeout: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            guard waitReadable(until: deadline) else { return false }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { return !server.isStopped || n == 0 }
        }
    }

    var closed: Bool { isClosed }

    private func headEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4) where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }

    /// Polls in short slices so a stopped server releases the thread promptly.
    private func waitReadable(until deadline: Date) -> Bool {
        while !server.isStopped, Date() < deadline {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, 50)
            if ready > 0 { return true }
            if ready < 0, errno != EINTR { return false }
        }
        return false
    }
}
