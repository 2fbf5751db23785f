import Dispatch
import Glibc

/// A listening TCP socket and its accept loop.
///
/// The accept source drains the backlog on every wake-up (accept until EAGAIN). Errors that
/// mean "no descriptors or buffers right now" (EMFILE, ENFILE, ENOBUFS, ENOMEM) must not end
/// the loop: they are logged once per burst and the source is suspended briefly, because a
/// level-triggered source would otherwise spin on the connection it cannot accept.
/// Confined to `queue`, hence `@unchecked Sendable`.
public final class Listener: @unchecked Sendable {
    public let fd: Int32
    public let port: Int
    private let queue: DispatchQueue
    private var source: DispatchSourceRead?
    private var suspended = false
    private var inErrorBurst = false
    private let log: @Sendable (String) -> Void
    private let onAccept: (Int32, String) -> Void
    private let wantsRemoteAddress: Bool

    /// Binds `host:port` (IPv4 or IPv6 literal, or a name resolved by getaddrinfo) and listens.
    public init(host: String, port: Int, backlog: Int32 = 4096, queue: DispatchQueue, wantsRemoteAddress: Bool,
         log: @escaping @Sendable (String) -> Void, onAccept: @escaping (Int32, String) -> Void) throws {
        self.queue = queue
        self.log = log
        self.onAccept = onAccept
        self.wantsRemoteAddress = wantsRemoteAddress

        var hints = POSIX.streamHints(passive: true)
        var result: UnsafeMutablePointer<addrinfo>?
        let node = host.isEmpty ? nil : host
        let rc = getaddrinfo(node, String(port), &hints, &result)
        guard rc == 0, let info = result else {
            throw SocketError(call: "getaddrinfo(\(host)): \(String(cString: gai_strerror(rc)))", errno: EINVAL)
        }
        defer { freeaddrinfo(result) }

        #if canImport(Glibc)
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
        let type = SOCK_STREAM
        #endif
        let fd = socket(info.pointee.ai_family, type, 0)
        guard fd >= 0 else { throw SocketError(call: "socket", errno: errno) }
        do {
            // Restarts must not wait out TIME_WAIT on the port (RFC 9293 §3.6.1 leaves it open).
            _ = POSIX.setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
            POSIX.setNoDelay(fd)
            guard bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
                throw SocketError(call: "bind(\(host):\(port))", errno: errno)
            }
            guard listen(fd, backlog) == 0 else { throw SocketError(call: "listen", errno: errno) }
            try POSIX.setNonBlocking(fd)
            self.port = try POSIX.boundPort(fd)
        } catch {
            close(fd)
            throw error
        }
        self.fd = fd
    }

    public func start() {
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [weak self] in self?.acceptAll() }
        let fd = self.fd
        source.setCancelHandler { close(fd) }
        self.source = source
        source.resume()
    }

    /// Stops accepting and closes the socket (in the cancel handler, after the source is gone).
    /// Must run on `queue`.
    public func stop() {
        guard let source else { return }
        self.source = nil
        if suspended {
            suspended = false
            source.resume()
        }
        source.cancel()
    }

    private func acceptAll() {
        var storage = sockaddr_storage()
        while true {
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    accept(fd, address, &length)
                }
            }
            if client >= 0 {
                inErrorBurst = false
                // Accepted sockets do not inherit O_NONBLOCK (and Glibc's module lacks accept4).
                _ = fcntl(client, F_SETFL, O_NONBLOCK)
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                POSIX.setNoDelay(client)
                let remote = wantsRemoteAddress
                    ? withUnsafePointer(to: &storage) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { POSIX.numericHost($0, length) }
                    }
                    : ""
                onAccept(client, remote)
                continue
            }
            let err = errno
            switch err {
            case EAGAIN, EWOULDBLOCK:
                return
            case EINTR, ECONNABORTED, EPROTO, EPERM:
                continue // that one connection is gone; the next may be fine
            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                backOff(err)
                return
            default:
                backOff(err)
                return
            }
        }
    }

    /// Suspends accepting for a moment when the process or system is out of resources.
    private func backOff(_ err: Int32) {
        if !inErrorBurst {
            inErrorBurst = true
            log("accept failed: \(String(cString: strerror(err))) (errno \(err)); backing off")
        }
        guard let source, !suspended else { return }
        suspended = true
        source.suspend()
        queue.asyncAfter(deadline: .now() + .milliseconds(50)) { [weak self] in
            guard let self, self.suspended, let source = self.source else { return }
            self.suspended = false
            source.resume()
        }
    }
}
