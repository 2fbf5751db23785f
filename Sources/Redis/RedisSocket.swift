import Glibc
import Transport

/// One address `getaddrinfo` gave for the Redis host, kept as raw `sockaddr` bytes.
struct RedisAddress: Sendable {
    var family: Int32
    var bytes: [UInt8]

    /// `127.0.0.1:6379` or `[::1]:6379`, for failure reasons.
    var text: String {
        bytes.withUnsafeBytes { raw -> String in
            guard let base = raw.baseAddress else { return "?" }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
            let rc = getnameinfo(base.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count),
                                 &host, socklen_t(host.count), &service, socklen_t(service.count),
                                 NI_NUMERICHOST | NI_NUMERICSERV)
            guard rc == 0 else { return "?" }
            let h = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let s = String(decoding: service.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return family == AF_INET6 ? "[\(h)]:\(s)" : "\(h):\(s)"
        }
    }
}

/// The socket calls of the Redis client: name resolution and a non-blocking TCP connect.
enum RedisSocket {
    /// Every TCP address of `host:port`, in the resolver's order. Blocking (`getaddrinfo`): the
    /// client calls it off its queue.
    enum Resolution: Sendable {
        case addresses([RedisAddress])
        case failed(String)
    }

    static func resolve(host: String, port: Int) -> Resolution {
        var hints = POSIX.streamHints()
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else {
            return .failed("cannot resolve \(host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(first) }
        var addresses: [RedisAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if let address = entry.pointee.ai_addr, entry.pointee.ai_addrlen > 0,
               entry.pointee.ai_family == AF_INET || entry.pointee.ai_family == AF_INET6 {
                let bytes = Array(UnsafeRawBufferPointer(start: address, count: Int(entry.pointee.ai_addrlen)))
                addresses.append(RedisAddress(family: entry.pointee.ai_family, bytes: bytes))
            }
            cursor = entry.pointee.ai_next
        }
        return addresses.isEmpty ? .failed("no TCP address for \(host)") : .addresses(addresses)
    }

    enum ConnectStart {
        /// `connect` is under way: wait for the socket to become writable, then `pendingError`.
        case inProgress(Int32)
        case connected(Int32)
        case failed(String)
    }

    /// Opens a non-blocking, close-on-exec TCP socket with Nagle off and starts connecting it.
    static func startConnect(_ address: RedisAddress) -> ConnectStart {
        #if canImport(Glibc)
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
        let type = SOCK_STREAM
        #endif
        let fd = socket(address.family, type, 0)
        guard fd >= 0 else { return .failed("socket: \(errorText(errno))") }
        #if !canImport(Glibc)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        #endif
        let rc = address.bytes.withUnsafeBytes { raw -> Int32 in
            guard let base = raw.baseAddress else { return -1 }
            return connect(fd, base.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        if rc == 0 { return .connected(fd) }
        let error = errno
        if error == EINPROGRESS || error == EINTR { return .inProgress(fd) }
        _ = close(fd)
        return .failed("connect to \(address.text): \(errorText(error))")
    }

    /// The outcome of a non-blocking connect once the socket is writable: 0 when connected.
    static func pendingError(_ fd: Int32) -> Int32 {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return errno }
        return error
    }

    /// `send` without SIGPIPE: a closed peer is an error to report, not a signal.
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        #if canImport(Glibc)
        return Glibc.send(fd, base, bytes.count, Int32(MSG_NOSIGNAL))
        #else
        return Darwin.send(fd, base, bytes.count, 0)
        #endif
    }

    static func closeDescriptor(_ fd: Int32) {
        _ = close(fd)
    }

    static func errorText(_ error: Int32) -> String {
        String(cString: strerror(error))
    }
}
