import Dispatch
import Glibc

/// What a connection wants to hear about its socket.
public struct SocketInterest: Equatable, Sendable {
    public var read: Bool
    public var write: Bool
    public static let none = SocketInterest(read: false, write: false)
    public static let reading = SocketInterest(read: true, write: false)
    public static let writing = SocketInterest(read: false, write: true)
    public static let readingAndWriting = SocketInterest(read: true, write: true)

    public init(read: Bool, write: Bool) {
        self.read = read
        self.write = write
    }
}

/// Whatever owns a socket watched by a `SocketReadinessSet`: the server's `Connection` (on its
/// `EventLoop`), the Redis client's connection (on its `SocketReadinessPoller`'s queue). Both
/// methods are called where the set is polled: the loop's thread, the poller's queue.
public protocol SocketReadinessHandler: AnyObject {
    /// The socket is readable (or hung up / failed) and reading is wanted.
    func readable()
    /// The socket is writable (or failed) and writing is wanted.
    func writable()
}

/// Readiness notifications for sockets owned by a serial Dispatch queue, delivered on that
/// queue: `readable()` / `writable()` of the handler whose socket is ready. The Redis client's
/// poller (the HTTP server's connections live on `EventLoop`s instead, see docs/server.md).
///
/// One `SocketReadinessSet` watched by a single `DispatchSourceRead` on its epoll descriptor:
/// a per-socket read source would cost, per event, an `ioctl(FIONREAD)`, two `epoll_ctl`
/// re-arms and a wake-up of a worker thread by Dispatch's event thread. Here those costs are
/// paid once per *batch* of ready sockets (one Dispatch event, one `epoll_wait`).
///
/// Confined to `queue`, hence `@unchecked Sendable`.
public final class SocketReadinessPoller<Handler: SocketReadinessHandler>: @unchecked Sendable {
    public let queue: DispatchQueue

    private let sockets = SocketReadinessSet<Handler>()
    private var source: DispatchSourceRead?

    public init(queue: DispatchQueue) {
        self.queue = queue
        let source = DispatchSource.makeReadSource(fileDescriptor: sockets.epfd, queue: queue)
        // One batch per event: whatever is left over keeps the epoll descriptor readable, so
        // Dispatch runs this again after other work on the queue.
        source.setEventHandler { [unowned self] in self.sockets.poll(timeoutMilliseconds: 0) { _ in } }
        self.source = source
        source.resume()
    }

    deinit {
        // The epoll descriptor must outlive its source: the set (which closes it) is kept
        // alive by the cancel handler.
        let sockets = self.sockets
        source?.setCancelHandler { withExtendedLifetime(sockets) {} }
        source?.cancel()
    }

    /// Starts watching `fd` for `connection` (on `queue`); see `SocketReadinessSet.register`.
    @discardableResult
    public func register(_ connection: Handler, fd: Int32, interest: SocketInterest) -> SocketPollingFailure? {
        sockets.register(connection, fd: fd, interest: interest)
    }

    /// Changes what `fd` is watched for; see `SocketReadinessSet.update`.
    @discardableResult
    public func update(fd: Int32, interest: SocketInterest) -> SocketPollingFailure? {
        sockets.update(fd: fd, interest: interest)
    }

    /// Stops watching `fd`; `then` runs afterwards on `queue` (where the descriptor is closed),
    /// whether or not the removal succeeded: closing the descriptor removes it from the set
    /// anyway, so a failure here is only worth reporting (it means a descriptor was closed
    /// or replaced behind the poller's back).
    @discardableResult
    public func unregister(fd: Int32, then: @escaping @Sendable () -> Void) -> SocketPollingFailure? {
        let failure = sockets.remove(fd: fd)
        // Later, not now: the caller is still running inside the connection.
        queue.async(execute: then)
        return failure
    }
}
