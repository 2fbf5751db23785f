import Dispatch
import Glibc

#if !os(Linux)
#error("almanac's server polls its sockets with epoll(7): it builds and runs on Linux only")
#endif

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

/// Whatever owns a socket watched by a `SocketReadinessPoller`: the server's `Connection`, the
/// Redis client's connection. Both methods are called on the poller's queue.
public protocol SocketReadinessHandler: AnyObject {
    /// The socket is readable (or hung up / failed) and reading is wanted.
    func readable()
    /// The socket is writable (or failed) and writing is wanted.
    func writable()
}

/// Readiness notifications for the sockets owned by one serial queue (the HTTP server's
/// connection queues, the Redis client's queue), delivered on that queue: `readable()` /
/// `writable()` of the handler whose socket is ready.
///
/// One epoll set per queue, watched by a single `DispatchSourceRead` on the
/// epoll descriptor. A per-connection read source costs, per event, an `ioctl(FIONREAD)`, two
/// `epoll_ctl` re-arms and a wake-up of a worker thread by Dispatch's event thread: more than the
/// `read` and `sendmsg` that do the work. Here those costs are paid once per *batch* of ready
/// sockets (one Dispatch event, one `epoll_wait`), and a socket's interest changes only when the
/// connection's wishes change (busy, blocked on output), never per request. The sockets are
/// registered level-triggered, so a socket that still holds input after one `read` is reported
/// again, exactly like a read source.
///
/// This is the only backend. A second one (a read and a write `DispatchSource` per socket, for
/// platforms without epoll) existed behind a compile flag, but no build ever compiled or tested
/// it, so it was removed rather than kept as untested code; see docs/server.md.
///
/// Confined to `queue`, hence `@unchecked Sendable`.
public final class SocketReadinessPoller<Handler: SocketReadinessHandler>: @unchecked Sendable {
    public let queue: DispatchQueue

    private let epfd: Int32
    private var source: DispatchSourceRead?
    /// Registered connections by descriptor (descriptors are small, dense integers).
    private var table: [Handler?] = []
    private var interests: [SocketInterest] = []
    private let events: UnsafeMutableRawPointer
    private static var batch: Int { 256 }

    public init(queue: DispatchQueue) {
        self.queue = queue
        epfd = Epoll.create()
        precondition(epfd >= 0, "epoll_create1 failed: errno \(errno)")
        events = .allocate(byteCount: Self.batch * Epoll.eventStride, alignment: 8)
        let source = DispatchSource.makeReadSource(fileDescriptor: epfd, queue: queue)
        source.setEventHandler { [unowned self] in self.drain() }
        self.source = source
        source.resume()
    }

    deinit {
        // The epoll descriptor must outlive its source: it is closed in the cancel handler.
        let epfd = self.epfd
        source?.setCancelHandler { _ = close(epfd) }
        source?.cancel()
        events.deallocate()
    }

    // Every `epoll_ctl` below is checked, and its failure returned to the socket's owner (the
    // results are discardable only because the Redis client, which shares this poller type,
    // has no use for them yet). A failed add or change leaves the poller's tables as the
    // kernel's set is: a socket epoll refused is not registered, and a refused change keeps
    // the interest the kernel still has.

    /// Starts watching `fd` for `connection` (on `queue`). On failure (e.g. `EPERM` for a
    /// descriptor epoll cannot watch, `ENOSPC` past `max_user_watches`, `ENOMEM`) nothing is
    /// registered: the owner must not wait for readiness that will never be reported.
    @discardableResult
    public func register(_ connection: Handler, fd: Int32, interest: SocketInterest) -> SocketPollingFailure? {
        let index = Int(fd)
        guard index >= 0 else { return SocketPollingFailure(operation: .add, fd: fd, errno: EBADF) }
        let error = Epoll.control(epfd, Epoll.add, fd, Self.mask(interest))
        guard error == 0 else { return SocketPollingFailure(operation: .add, fd: fd, errno: error) }
        if index >= table.count {
            let count = max(index + 1, table.count * 2, 64)
            table.append(contentsOf: repeatElement(nil, count: count - table.count))
            interests.append(contentsOf: repeatElement(.none, count: count - interests.count))
        }
        table[index] = connection
        interests[index] = interest
        return nil
    }

    /// Changes what `fd` is watched for; a no-op when nothing changes (or `fd` is not
    /// registered). On failure the old interest stays, in the kernel and here.
    @discardableResult
    public func update(fd: Int32, interest: SocketInterest) -> SocketPollingFailure? {
        let index = Int(fd)
        guard index >= 0, index < interests.count, table[index] != nil, interests[index] != interest else { return nil }
        let error = Epoll.control(epfd, Epoll.modify, fd, Self.mask(interest))
        guard error == 0 else { return SocketPollingFailure(operation: .modify, fd: fd, errno: error) }
        interests[index] = interest
        return nil
    }

    /// Stops watching `fd`; `then` runs afterwards on `queue` (where the descriptor is closed),
    /// whether or not the removal succeeded: closing the descriptor removes it from the set
    /// anyway, so a failure here is only worth reporting (it means a descriptor was closed
    /// or replaced behind the poller's back).
    @discardableResult
    public func unregister(fd: Int32, then: @escaping @Sendable () -> Void) -> SocketPollingFailure? {
        let index = Int(fd)
        var failure: SocketPollingFailure?
        if index >= 0, index < table.count, table[index] != nil {
            let error = Epoll.control(epfd, Epoll.delete, fd, 0)
            if error != 0 { failure = SocketPollingFailure(operation: .delete, fd: fd, errno: error) }
            table[index] = nil
            interests[index] = .none
        }
        // Later, not now: the caller is still running inside the connection.
        queue.async(execute: then)
        return failure
    }

    /// With nothing wanted, only a hang-up or error could be reported, and it is reported
    /// once (`EPOLLONESHOT`) so that an unwanted, permanent condition cannot spin the queue.
    private static func mask(_ interest: SocketInterest) -> UInt32 {
        var mask: UInt32 = 0
        if interest.read { mask |= Epoll.readable }
        if interest.write { mask |= Epoll.writable }
        if mask == 0 { mask = Epoll.oneShot }
        return mask
    }

    /// One batch: whatever is left over (more than `batch` ready sockets) keeps the epoll
    /// descriptor readable, so Dispatch runs this again after other work on the queue.
    private func drain() {
        var n: Int32
        repeat {
            n = Epoll.wait(epfd, events, Int32(Self.batch), 0)
        } while n < 0 && errno == EINTR
        guard n > 0 else { return }
        let readMask = Epoll.readable | Epoll.hangUp | Epoll.error
        let writeMask = Epoll.writable | Epoll.hangUp | Epoll.error
        for i in 0..<Int(n) {
            let (flags, fd) = Epoll.event(events, i)
            let index = Int(fd)
            guard index < table.count, let connection = table[index] else { continue }
            let interest = interests[index]
            if interest.read && flags & readMask != 0 {
                connection.readable()
            }
            if interest.write && flags & writeMask != 0 && table[index] === connection && interests[index].write {
                connection.writable()
            }
        }
    }
}
