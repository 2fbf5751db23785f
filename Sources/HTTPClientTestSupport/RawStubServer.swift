import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A scriptable TCP server on 127.0.0.1 (or another 127.0.0.x address; ephemeral port) for fault tests of the HTTP client:
/// every accepted connection runs `script` on its own thread. It counts accepted connections
/// and request heads read, and `stop()` releases every thread promptly.
public final class RawStubServer: Sendable {
    public typealias Script = @Sendable (RawConnection) -> Void

    public let port: Int
    /// The loopback address it listens on, `127.0.0.1` unless asked otherwise.
    public let address: String
    /// `http://ADDRESS:PORT`
    public var baseURL: String { "http://\(address):\(port)" }

    private struct State {
        var stopped = false
        var accepted = 0
        var requests = 0
        var open: Set<Int32> = []
        var finished = 0
    }

    private let listenFD: Int32
    private let state = Mutex(State())
    private let script: Script

    /// - Parameter address: a 127.0.0.x address: tests use a second one (127.0.0.2) as a canary
    ///   that must never be contacted.
    public init(address: String = "127.0.0.1", script: @escaping Script) throws {
        precondition(address.hasPrefix("127."), "test servers listen on loopback only")
        self.address = address
        signal(SIGPIPE, SIG_IGN)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var yes: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr(self.address)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 1024) == 0 else {
            let code = errno
            _ = Glibc.close(fd)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listenFD = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        self.script = script
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "raw-stub-accept"
        thread.start()
    }

    deinit { stop() }

    /// TCP connections accepted so far.
    public var acceptedConnections: Int { state.withLock { $0.accepted } }
    /// Request heads read by scripts so far.
    public var requestCount: Int { state.withLock { $0.requests } }
    /// Connections currently open on the server side.
    public var openConnections: Int { state.withLock { $0.open.count } }
    var isStopped: Bool { state.withLock { $0.stopped } }

    /// Stops accepting and wakes every connection thread (their sockets are shut down).
    public func stop() {
        let fds: Set<Int32>? = state.withLock { s in
            guard !s.stopped else { return nil }
            s.stopped = true
            // Under the lock, so no fd is closed (and its number reused) meanwhile.
            for fd in s.open { _ = shutdown(fd, Int32(SHUT_RDWR)) }
            return s.open
        }
        guard fds != nil else { return }
        _ = shutdown(listenFD, Int32(SHUT_RDWR))
    }

    func countRequest() { state.withLock { $0.requests += 1 } }
    /// Closes a connection's fd under the lock that `stop()` shuts sockets down under.
    func close(_ fd: Int32) {
        state.withLock {
            $0.open.remove(fd)
            _ = Glibc.close(fd)
        }
    }

    private func acceptLoop() {
        defer { _ = Glibc.close(listenFD) }
        while !isStopped {
            var pfd = pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 50) > 0 else { continue }
            let fd = accept(listenFD, nil, nil)
            guard fd >= 0 else { continue }
            var yes: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            let admitted = state.withLock { s -> Bool in
                guard !s.stopped else { return false }
                s.accepted += 1
                s.open.insert(fd)
                return true
            }
            guard admitted else {
                _ = Glibc.close(fd)
                break
            }
            let connection = RawConnection(fd: fd, server: self)
            let script = self.script
            let thread = Thread {
                script(connection)
                connection.close()
            }
            thread.name = "raw-stub-connection"
            thread.start()
        }
    }
}
