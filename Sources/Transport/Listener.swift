import Dispatch
import Glibc

/// A listening TCP socket and its accept loop, on one `EventLoop`.
///
/// Each event loop has its own listening socket on the same address, bound with
/// `SO_REUSEPORT` (the kernel spreads new connections over them), so a connection is accepted
/// by the loop that will serve it. Every wake-up drains the backlog (accept until EAGAIN).
/// Errors that mean "no descriptors or buffers right now" (EMFILE, ENFILE, ENOBUFS, ENOMEM)
/// must not end the loop: they are logged once per burst and accepting pauses briefly, because
/// a level-triggered socket would otherwise spin on the connection it cannot accept.
/// Generic over the loop's handler type (the server's connections). Confined to its loop once
/// started, hence `@unchecked Sendable`.
public final class Listener<Handler: SocketReadinessHandler>: @unchecked Sendable {
    public let fd: Int32
    public let port: Int
    private var loop: EventLoop<Handler>?
    private var watching = false
    private var backOffTimer = -1
    private var inErrorBurst = false
    private let log: @Sendable (String) -> Void
    private let onAccept: (Int32, String) -> Void
    private let wantsRemoteAddress: Bool

    /// Binds `host:port` (IPv4 or IPv6 literal, or a name resolved by getaddrinfo) with
    /// `SO_REUSEPORT` and listens. Port 0 asks the kernel for one; the other loops' listeners
    /// then bind the port the first one got.
    public init(host: String, port: Int, backlog: Int32 = 4096, wantsRemoteAddress: Bool,
         log: @escaping @Sendable (String) -> Void, onAccept: @escaping (Int32, String) -> Void) throws {
        self.log = log
        self.onAccept = onAccept
        self.wantsRemoteAddress = wantsRemoteAddress
        let fd = try Self.bound(host: host, port: port, reusePort: true)
        do {
            guard listen(fd, backlog) == 0 else { throw SocketError(call: "listen", errno: errno) }
            try POSIX.setNonBlocking(fd)
            self.port = try POSIX.boundPort(fd)
        } catch {
            close(fd)
            throw error
        }
        self.fd = fd
    }

    /// Fails exactly as binding a listener would if `host:port` is taken, whoever holds it.
    /// Needed before binding with `SO_REUSEPORT`: another process of the same user listening
    /// there with that option would otherwise *share* the port (and its connections) instead
    /// of the bind failing. The probe binds without the option and is closed at once.
    public static func checkAvailable(host: String, port: Int) throws {
        close(try bound(host: host, port: port, reusePort: false))
    }

    /// A TCP socket bound to `host:port`, not listening yet.
    private static func bound(host: String, port: Int, reusePort: Bool) throws -> Int32 {
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
        // Restarts must not wait out TIME_WAIT on the port (RFC 9293 §3.6.1 leaves it open).
        _ = POSIX.setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
        if reusePort { _ = POSIX.setOption(fd, SOL_SOCKET, SO_REUSEPORT, 1) }
        POSIX.setNoDelay(fd)
        guard bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            let error = SocketError(call: "bind(\(host):\(port))", errno: errno)
            close(fd)
            throw error
        }
        return fd
    }

    /// Starts accepting on `loop` (call it there).
    public func start(on loop: EventLoop<Handler>) {
        self.loop = loop
        resume()
    }

    /// Stops accepting and closes the socket. Must run on the loop.
    public func stop() {
        guard let loop else { return }
        if watching { loop.unwatch(fd: fd) }
        watching = false
        if backOffTimer >= 0 { loop.removeTimer(backOffTimer) }
        backOffTimer = -1
        self.loop = nil
        close(fd)
    }

    private func resume() {
        guard let loop, !watching else { return }
        let error = loop.watch(fd: fd) { [unowned self] in acceptAll() }
        if error == 0 {
            watching = true
        } else {
            log("cannot watch the listening socket: \(String(cString: strerror(error))) (errno \(error))")
        }
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

    /// Pauses accepting for a moment when the process or system is out of resources.
    private func backOff(_ err: Int32) {
        if !inErrorBurst {
            inErrorBurst = true
            log("accept failed: \(String(cString: strerror(err))) (errno \(err)); backing off")
        }
        guard let loop, watching else { return }
        loop.unwatch(fd: fd)
        watching = false
        if backOffTimer < 0 { backOffTimer = loop.addTimer { [unowned self] in resume() } }
        loop.arm(backOffTimer, at: DispatchTime.now().uptimeNanoseconds + 50_000_000)
    }
}
