import Glibc

/// An `epoll_ctl` that `SocketReadinessPoller` could not make: the socket is not watched the
/// way its owner asked. Returned to the owner, which decides what that means (the server's
/// `Connection` closes: a socket nobody reports on would hang until its deadline, or forever
/// while the responder works).
public struct SocketPollingFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Operation: String, Sendable {
        case add = "EPOLL_CTL_ADD"
        case modify = "EPOLL_CTL_MOD"
        case delete = "EPOLL_CTL_DEL"
    }

    public let operation: Operation
    public let fd: Int32
    /// The `errno` the call failed with.
    public let errno: Int32

    public var description: String {
        "epoll_ctl(\(operation.rawValue), fd \(fd)) failed: \(String(cString: strerror(errno))) (errno \(errno))"
    }
}
