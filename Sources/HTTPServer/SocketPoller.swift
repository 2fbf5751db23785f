import Dispatch
#if canImport(CEpoll)
import CEpoll
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a connection wants to hear about its socket.
public struct SocketInterest: Equatable, Sendable {
    public var read: Bool
    public var write: Bool
    public init(read: Bool, write: Bool) {
        self.read = read
        self.write = write
    }
    public static let none = SocketInterest(read: false, write: false)
    public static let reading = SocketInterest(read: true, write: false)
    public static let writing = SocketInterest(read: false, write: true)
}

/// Whatever owns a socket watched by a `SocketReadinessPoller`: the server's `Connection`, the
/// Redis client's connection. Both methods are called on the poller's queue.
public protocol SocketReadinessHandler: AnyObject {
    /// The socket is readable (or hung up / failed) and reading is wanted.
    func readable()
    /// The socket is writable (or failed) and writing is wanted.
    func writable()
}

extension Connection: SocketReadinessHandler {}

/// The server's poller. Generic over the handler type so that the per-event calls are direct
/// (specialized), not through an existential: the Redis client has a poller of its own type.
typealias SocketPoller = SocketReadinessPoller<Connection>

/// Readiness notifications for the sockets owned by one `ConnectionQueue`, delivered on that
/// queue: `readable()` / `writable()` of the connection whose socket is ready.
///
/// On Linux this is one epoll set per queue, watched by a single `DispatchSourceRead` on the
/// epoll descriptor. A per-connection read source costs, per event, an `ioctl(FIONREAD)`, two
/// `epoll_ctl` re-arms and a wake-up of a worker thread by Dispatch's event thread: more than the
/// `read` and `sendmsg` that do the work. Here those costs are paid once per *batch* of ready
/// sockets (one Dispatch event, one `epoll_wait`), and a socket's interest changes only when the
/// connection's wishes change (busy, blocked on output), never per request. The sockets are
/// registered level-triggered, so a socket that still holds input after one `read` is reported
/// again, exactly like a read source.
///
/// Elsewhere (and on Linux when built with `-DALMANAC_DISPATCH_SOURCES`) every socket gets its
/// own read and write `DispatchSource`, suspended while not wanted.
///
/// Confined to `queue`, hence `@unchecked Sendable`.
public final class SocketReadinessPoller<Handler: SocketReadinessHandler>: @unchecked Sendable {
    public let queue: DispatchQueue

    #if os(Linux) && !ALMANAC_DISPATCH_SOURCES
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

    /// Starts watching `fd` for `connection` (on `queue`).
    public func register(_ connection: Handler, fd: Int32, interest: SocketInterest) {
        let index = Int(fd)
        if index >= table.count {
            let count = max(index + 1, table.count * 2, 64)
            table.append(contentsOf: repeatElement(nil, count: count - table.count))
            interests.append(contentsOf: repeatElement(.none, count: count - interests.count))
        }
        table[index] = connection
        interests[index] = interest
        Epoll.control(epfd, Epoll.add, fd, Self.mask(interest))
    }

    /// Changes what `fd` is watched for; a no-op when nothing changes.
    public func update(fd: Int32, interest: SocketInterest) {
        let index = Int(fd)
        guard index < interests.count, table[index] != nil, interests[index] != interest else { return }
        interests[index] = interest
        Epoll.control(epfd, Epoll.modify, fd, Self.mask(interest))
    }

    /// Stops watching `fd`; `then` runs afterwards on `queue` (where the descriptor is closed).
    public func unregister(fd: Int32, then: @escaping @Sendable () -> Void) {
        let index = Int(fd)
        if index < table.count, table[index] != nil {
            Epoll.control(epfd, Epoll.delete, fd, 0)
            table[index] = nil
            interests[index] = .none
        }
        // Later, not now: the caller is still running inside the connection.
        queue.async(execute: then)
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
    #else
    private final class Watch: @unchecked Sendable {
        unowned let connection: Handler
        var read: DispatchSourceRead?
        var write: DispatchSourceWrite?
        var readSuspended = false
        var writeSuspended = false
        var live = 0
        init(connection: Handler) { self.connection = connection }
    }

    private var watches: [Int32: Watch] = [:]

    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    public func register(_ connection: Handler, fd: Int32, interest: SocketInterest) {
        let watch = Watch(connection: connection)
        let read = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        read.setEventHandler { [unowned connection] in connection.readable() }
        watch.read = read
        watch.live = 1
        watches[fd] = watch
        read.resume()
        update(fd: fd, interest: interest)
    }

    public func update(fd: Int32, interest: SocketInterest) {
        guard let watch = watches[fd], let read = watch.read else { return }
        if interest.read == watch.readSuspended {
            watch.readSuspended = !interest.read
            if interest.read { read.resume() } else { read.suspend() }
        }
        if interest.write {
            if let write = watch.write {
                if watch.writeSuspended {
                    watch.writeSuspended = false
                    write.resume()
                }
            } else {
                // Created on first need only: most connections never block on output.
                let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
                let connection = watch.connection
                source.setEventHandler { [unowned connection] in connection.writable() }
                watch.write = source
                watch.live += 1
                source.resume()
            }
        } else if let write = watch.write, !watch.writeSuspended {
            watch.writeSuspended = true
            write.suspend()
        }
    }

    public func unregister(fd: Int32, then: @escaping @Sendable () -> Void) {
        guard let watch = watches.removeValue(forKey: fd) else {
            queue.async(execute: then)
            return
        }
        // libdispatch requires a watched descriptor to outlive its sources: `then` (which
        // closes it) runs in the cancel handler of the last one.
        let finish: @Sendable () -> Void = { [watch] in
            watch.live -= 1
            if watch.live == 0 { then() }
        }
        if let read = watch.read {
            read.setCancelHandler(handler: finish)
            if watch.readSuspended { read.resume() }
            read.cancel()
        }
        if let write = watch.write {
            write.setCancelHandler(handler: finish)
            if watch.writeSuspended { write.resume() }
            write.cancel()
        }
    }
    #endif
}

#if os(Linux) && !ALMANAC_DISPATCH_SOURCES
/// The few epoll(7) calls the poller needs, through the `CEpoll` header module, with the
/// descriptor itself as each event's data.
enum Epoll {
    static let add = EPOLL_CTL_ADD
    static let delete = EPOLL_CTL_DEL
    static let modify = EPOLL_CTL_MOD
    static let readable = EPOLLIN.rawValue
    static let writable = EPOLLOUT.rawValue
    static let error = EPOLLERR.rawValue
    static let hangUp = EPOLLHUP.rawValue
    static let oneShot = EPOLLONESHOT.rawValue
    static let eventStride = MemoryLayout<epoll_event>.stride

    static func create() -> Int32 { epoll_create1(Int32(EPOLL_CLOEXEC)) }

    static func control(_ epfd: Int32, _ op: Int32, _ fd: Int32, _ events: UInt32) {
        var event = epoll_event()
        event.events = events
        event.data.fd = fd
        _ = epoll_ctl(epfd, op, fd, &event)
    }

    static func wait(_ epfd: Int32, _ events: UnsafeMutableRawPointer, _ capacity: Int32, _ timeout: Int32) -> Int32 {
        epoll_wait(epfd, events.assumingMemoryBound(to: epoll_event.self), capacity, timeout)
    }

    /// The flags and descriptor of the `index`th event `wait` returned.
    static func event(_ events: UnsafeMutableRawPointer, _ index: Int) -> (flags: UInt32, fd: Int32) {
        let event = events.assumingMemoryBound(to: epoll_event.self)[index]
        return (event.events, event.data.fd)
    }
}
#endif
