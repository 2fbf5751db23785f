import Glibc

/// The byte-moving calls on a connected, non-blocking socket, so that the HTTP/1.1 layer above
/// reads as protocol and never touches `errno` or `msghdr` itself.
public enum SocketIO {
    /// What one `read` found.
    public enum ReadOutcome: Equatable, Sendable {
        /// This many bytes (more than zero) are now at the start of the buffer.
        case bytes(Int)
        /// The peer closed its side: nothing more will arrive.
        case endOfInput
        /// Nothing to read right now (the poller reported readiness that was consumed elsewhere).
        case wouldBlock
        /// The connection failed (reset, timed out, …), with `errno`.
        case failed(Int32)
    }

    /// One `read(2)` into `buffer`, retried on `EINTR`.
    @inline(__always)
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> ReadOutcome {
        var n: Int
        repeat {
            n = Glibc.read(fd, buffer.baseAddress, buffer.count)
        } while n < 0 && errno == EINTR
        if n > 0 { return .bytes(n) }
        if n == 0 { return .endOfInput }
        let error = errno
        return error == EAGAIN || error == EWOULDBLOCK ? .wouldBlock : .failed(error)
    }

    /// One gathered `sendmsg(2)` of `first` then `second` (either may be empty), with
    /// `MSG_NOSIGNAL` so a vanished peer is an error, not a SIGPIPE. Returns the bytes written,
    /// 0 when the socket would block, -1 when the connection failed.
    public static func send(_ fd: Int32, _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> Int {
        var vectors = (iovec(iov_base: UnsafeMutableRawPointer(mutating: first.baseAddress), iov_len: first.count),
                       iovec(iov_base: UnsafeMutableRawPointer(mutating: second.baseAddress), iov_len: second.count))
        return withUnsafeMutableBytes(of: &vectors) { raw in
            guard let base = raw.baseAddress else { return -1 }
            var message = msghdr()
            message.msg_iov = base.assumingMemoryBound(to: iovec.self)
            message.msg_iovlen = second.count > 0 ? 2 : 1
            if first.count == 0 {
                message.msg_iov = message.msg_iov.advanced(by: 1)
                message.msg_iovlen = 1
            }
            while true {
                let n = sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
                if n >= 0 { return n }
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return 0
                default: return -1
                }
            }
        }
    }

    /// Ends our sending side (`shutdown(SHUT_WR)`): the peer reads EOF after what was sent,
    /// while its late bytes can still be read and discarded (lingering close, RFC 9112 §9.6).
    public static func shutdownOutput(_ fd: Int32) {
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    /// Closes a descriptor. Its result is not actionable: after `close` the descriptor is gone
    /// whatever it returns (Linux never retries a close interrupted by a signal).
    public static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }
}
