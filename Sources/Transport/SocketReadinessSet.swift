import Glibc

#if !os(Linux)
#error("almanac's server polls its sockets with epoll(7): it builds and runs on Linux only")
#endif

/// One epoll(7) set and the handlers of the sockets in it, indexed by descriptor: what both
/// the server's `EventLoop` and the Dispatch-driven `SocketReadinessPoller` (the Redis
/// client's) wait on. It registers, changes and removes sockets and delivers a batch of
/// readiness to the handlers (`poll`); who calls `poll`, and when, is its owner's business.
///
/// The sockets are registered level-triggered, so a socket that still holds input after one
/// `read` is reported again, and a socket's interest changes only when its owner's wishes
/// change (busy, blocked on output), never per request. Generic over the handler type so
/// that the per-event calls are direct (specialized), not through an existential.
///
/// Confined to its owner's thread or queue, hence `@unchecked Sendable`.
public final class SocketReadinessSet<Handler: SocketReadinessHandler>: @unchecked Sendable {
    /// The epoll descriptor; its owner may add descriptors of its own (`watchUnclaimed`).
    let epfd: Int32
    /// Registered handlers and their interests by descriptor (descriptors are small, dense
    /// integers), behind a pointer: each access to a class's stored `var` pays a run-time
    /// exclusivity check, and every delivered event read both. The set is confined to its
    /// owner's thread and no access spans a call out (a handler may register or remove sockets
    /// while it runs: `poll` re-reads the tables after each call), so the checks guarded nothing.
    private struct Tables {
        /// The handlers by descriptor, held as `AnyObject` (every handler is a class): the set is
        /// generic over its handler, and in a module that does not know the handler's type, an
        /// `Array<Handler?>` read went through the unspecialized generic subscript and a metadata
        /// lookup on every event (~300 instructions per cached hit). A concrete element type is
        /// read inline; the object is then used as the `Handler` it was registered as.
        var table: [AnyObject?] = []
        var interests: [SocketInterest] = []
    }

    private let tables: UnsafeMutablePointer<Tables>
    @inline(__always)
    private var registered: Tables {
        _read { yield tables.pointee }
        _modify { yield &tables.pointee }
    }
    private let events: UnsafeMutableRawPointer
    private static var batch: Int { 256 }

    public init() {
        epfd = Epoll.create()
        precondition(epfd >= 0, "epoll_create1 failed: errno \(errno)")
        events = .allocate(byteCount: Self.batch * Epoll.eventStride, alignment: 8)
        tables = .allocate(capacity: 1)
        tables.initialize(to: Tables())
    }

    deinit {
        _ = close(epfd)
        events.deallocate()
        tables.deinitialize(count: 1)
        tables.deallocate()
    }

    // Every `epoll_ctl` below is checked, and its failure returned to the socket's owner. A
    // failed add or change leaves the tables as the kernel's set is: a socket epoll refused is
    // not registered, and a refused change keeps the interest the kernel still has.

    /// Starts watching `fd` for `handler`. On failure (e.g. `EPERM` for a descriptor epoll
    /// cannot watch, `ENOSPC` past `max_user_watches`, `ENOMEM`) nothing is registered: the
    /// owner must not wait for readiness that will never be reported.
    @discardableResult
    public func register(_ handler: Handler, fd: Int32, interest: SocketInterest) -> SocketPollingFailure? {
        let index = Int(fd)
        guard index >= 0 else { return SocketPollingFailure(operation: .add, fd: fd, errno: EBADF) }
        let error = Epoll.control(epfd, Epoll.add, fd, Self.mask(interest))
        guard error == 0 else { return SocketPollingFailure(operation: .add, fd: fd, errno: error) }
        if index >= registered.table.count {
            let count = max(index + 1, registered.table.count * 2, 64)
            registered.table.append(contentsOf: repeatElement(nil, count: count - registered.table.count))
            registered.interests.append(contentsOf: repeatElement(.none, count: count - registered.interests.count))
        }
        registered.table[index] = handler
        registered.interests[index] = interest
        return nil
    }

    /// Changes what `fd` is watched for; a no-op when nothing changes (or `fd` is not
    /// registered). On failure the old interest stays, in the kernel and here.
    @discardableResult
    public func update(fd: Int32, interest: SocketInterest) -> SocketPollingFailure? {
        let index = Int(fd)
        guard index >= 0, index < registered.interests.count, registered.table[index] != nil, registered.interests[index] != interest else { return nil }
        let error = Epoll.control(epfd, Epoll.modify, fd, Self.mask(interest))
        guard error == 0 else { return SocketPollingFailure(operation: .modify, fd: fd, errno: error) }
        registered.interests[index] = interest
        return nil
    }

    /// Stops watching `fd`. Events for it still in the batch being delivered are dropped. The
    /// caller closes the descriptor afterwards, not before the batch is over (its number
    /// could be reused while events for the old socket are still being delivered); a failure
    /// here means it was closed or replaced behind the set's back and is only worth reporting.
    @discardableResult
    public func remove(fd: Int32) -> SocketPollingFailure? {
        let index = Int(fd)
        guard index >= 0, index < registered.table.count, registered.table[index] != nil else { return nil }
        let error = Epoll.control(epfd, Epoll.delete, fd, 0)
        registered.table[index] = nil
        registered.interests[index] = .none
        return error == 0 ? nil : SocketPollingFailure(operation: .delete, fd: fd, errno: error)
    }

    /// Adds a descriptor that is not a handler's (an event loop's wake-up descriptor, a
    /// listening socket) for reading; its readiness goes to `poll`'s `unclaimed`.
    func watchUnclaimed(fd: Int32) -> Int32 {
        Epoll.control(epfd, Epoll.add, fd, Epoll.readable)
    }

    /// Removes a descriptor added with `watchUnclaimed`.
    func unwatchUnclaimed(fd: Int32) {
        _ = Epoll.control(epfd, Epoll.delete, fd, 0)
    }

    /// With nothing wanted, only a hang-up or error could be reported, and it is reported
    /// once (`EPOLLONESHOT`) so that an unwanted, permanent condition cannot spin the owner.
    private static func mask(_ interest: SocketInterest) -> UInt32 {
        var mask: UInt32 = 0
        if interest.read { mask |= Epoll.readable }
        if interest.write { mask |= Epoll.writable }
        if mask == 0 { mask = Epoll.oneShot }
        return mask
    }

    /// Waits up to `timeoutMilliseconds` (-1: indefinitely, 0: not at all) for one batch of
    /// ready sockets and delivers it: `readable()` / `writable()` of each ready handler, and
    /// `unclaimed` for ready descriptors that are no handler's. Returns how many events came;
    /// whatever is left over (more than a batch) is reported by the next call.
    @discardableResult
    func poll(timeoutMilliseconds: Int32, unclaimed: (Int32) -> Void) -> Int {
        var n: Int32
        repeat {
            n = Epoll.wait(epfd, events, Int32(Self.batch), timeoutMilliseconds)
        } while n < 0 && errno == EINTR
        guard n > 0 else { return 0 }
        let readMask = Epoll.readable | Epoll.hangUp | Epoll.error
        let writeMask = Epoll.writable | Epoll.hangUp | Epoll.error
        for i in 0..<Int(n) {
            let (flags, fd) = Epoll.event(events, i)
            let index = Int(fd)
            guard index < registered.table.count, let object = registered.table[index] else {
                unclaimed(fd)
                continue
            }
            // Only `register` stores objects here, each a `Handler`.
            let handler = unsafeDowncast(object, to: Handler.self)
            let interest = registered.interests[index]
            if interest.read && flags & readMask != 0 {
                handler.readable()
            }
            if interest.write && flags & writeMask != 0 && registered.table[index] === object && registered.interests[index].write {
                handler.writable()
            }
        }
        return Int(n)
    }
}
