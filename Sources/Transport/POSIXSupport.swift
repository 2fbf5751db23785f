import Glibc

/// A failed system call, with the call's name and `errno`.
public struct SocketError: Error, Sendable, CustomStringConvertible {
    public var call: String
    public var errno: Int32
    public var description: String { "\(call): \(String(cString: strerror(errno))) (errno \(errno))" }
    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }
}

/// Small wrappers over the socket calls the server (and the Redis client) makes, so the rest
/// reads as intent.
public enum POSIX {
    /// `getaddrinfo` hints for TCP over IPv4 or IPv6 (`passive`: for a listening socket, with
    /// a numeric service), shared by the listener and every client socket of the project.
    public static func streamHints(passive: Bool = false) -> addrinfo {
        var hints = addrinfo()
        if passive { hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV }
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        return hints
    }

    /// Writes to a closed peer must fail with EPIPE instead of killing the process
    /// (sends also pass MSG_NOSIGNAL; this covers any other write path).
    public static func ignoreSIGPIPE() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Raises the soft RLIMIT_NOFILE to the hard limit: each connection is one descriptor,
    /// and the default soft limit (often 1024) would cap the server far below `maxConnections`.
    @discardableResult
    public static func raiseFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(resourceNOFILE, &limit) == 0 else { return -1 }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(resourceNOFILE, &limit)
        }
        guard getrlimit(resourceNOFILE, &limit) == 0 else { return -1 }
        return Int(clamping: limit.rlim_cur)
    }

    #if canImport(Glibc)
    private static let resourceNOFILE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resourceNOFILE = RLIMIT_NOFILE
    #endif

    static func setNonBlocking(_ fd: Int32) throws {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw SocketError(call: "fcntl(O_NONBLOCK)", errno: errno)
        }
    }

    static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) -> Bool {
        var v = value
        return setsockopt(fd, level, name, &v, socklen_t(MemoryLayout<Int32>.size)) == 0
    }

    /// Disables Nagle: a response is one write and must leave at once, not wait for an ACK.
    public static func setNoDelay(_ fd: Int32) {
        _ = setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
    }

    /// The numeric address of a peer, e.g. `127.0.0.1` or `::1` (no port).
    static func numericHost(_ storage: UnsafePointer<sockaddr>, _ length: socklen_t) -> String {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let rc = getnameinfo(storage, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST)
        guard rc == 0 else { return "-" }
        return host.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// The port a bound socket actually got (for port 0).
    static func boundPort(_ fd: Int32) throws -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard rc == 0 else { throw SocketError(call: "getsockname", errno: errno) }
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
        default:
            return 0
        }
    }
}
