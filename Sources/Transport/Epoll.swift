import CEpoll
import Glibc

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

    /// One `epoll_ctl`; returns 0, or the `errno` it failed with.
    static func control(_ epfd: Int32, _ op: Int32, _ fd: Int32, _ events: UInt32) -> Int32 {
        var event = epoll_event()
        event.events = events
        event.data.fd = fd
        return epoll_ctl(epfd, op, fd, &event) == 0 ? 0 : errno
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
