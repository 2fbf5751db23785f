import Dispatch
import Synchronization
import Testing
import TestSupport
@testable import HTTP1
@testable import Transport
#if canImport(Glibc)
import Glibc
#endif

/// Every `epoll_ctl` the poller makes is checked: failures provoked with plain descriptors
/// (a regular file, which epoll refuses; a pipe closed behind the poller's back), and what a
/// server connection does when epoll refuses its socket.
@Suite struct SocketPollerTests {
    /// Ignores readiness: these tests are about registration.
    final class Ignoring: SocketReadinessHandler, @unchecked Sendable {
        func readable() {}
        func writable() {}
    }

    /// A regular file's descriptor: epoll(7) cannot watch one (`EPERM`).
    static func regularFile() throws -> Int32 {
        var template = Array("/tmp/almanac-poller-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        try #require(fd >= 0)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return fd
    }

    @Test func aDescriptorEpollRefusesIsNotRegistered() throws {
        let poller = SocketReadinessPoller<Ignoring>(queue: DispatchQueue(label: "poller-test"))
        let handler = Ignoring()
        let fd = try Self.regularFile()
        defer { close(fd) }
        poller.queue.sync {
            let failure = poller.register(handler, fd: fd, interest: .reading)
            #expect(failure == SocketPollingFailure(operation: .add, fd: fd, errno: EPERM))
            #expect(failure?.description.contains("EPOLL_CTL_ADD") == true)
            // Not registered, so there is nothing to change or remove.
            #expect(poller.update(fd: fd, interest: .writing) == nil)
            #expect(poller.unregister(fd: fd) {} == nil)
        }
    }

    @Test func changingOrRemovingADescriptorClosedBehindThePollersBackFails() async throws {
        let poller = SocketReadinessPoller<Ignoring>(queue: DispatchQueue(label: "poller-test"))
        let handler = Ignoring()
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[1]) }
        let unregistered = Locked(false)
        poller.queue.sync {
            #expect(poller.register(handler, fd: ends[0], interest: .reading) == nil)
            close(ends[0]) // closing drops the kernel's registration; the poller still lists it
            #expect(poller.update(fd: ends[0], interest: .none)
                    == SocketPollingFailure(operation: .modify, fd: ends[0], errno: EBADF))
            // The removal fails too, and is reported; what was to follow the removal still runs.
            #expect(poller.unregister(fd: ends[0]) { unregistered.set(true) }
                    == SocketPollingFailure(operation: .delete, fd: ends[0], errno: EBADF))
        }
        #expect(await waitUntil(timeout: 5) { unregistered.value })
    }

    @Test func aChangeEpollAcceptsIsMadeAndAFailedOneKeepsTheOldInterest() throws {
        let poller = SocketReadinessPoller<Ignoring>(queue: DispatchQueue(label: "poller-test"))
        let handler = Ignoring()
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[1]) }
        poller.queue.sync {
            #expect(poller.register(handler, fd: ends[0], interest: .reading) == nil)
            #expect(poller.update(fd: ends[0], interest: .none) == nil)
            #expect(poller.update(fd: ends[0], interest: .none) == nil) // no change, no call
            let kept = ends[0]
            close(kept)
            #expect(poller.update(fd: kept, interest: .reading)?.operation == .modify)
            // The refused change was not recorded: asking for `.none` again makes no call.
            #expect(poller.update(fd: kept, interest: .none) == nil)
            _ = poller.unregister(fd: kept) {}
        }
    }

    /// The connection's handling path, end to end inside the server core: a socket epoll
    /// refuses to watch is closed at once (its slot freed) and the failure is logged.
    @Test func aConnectionWhoseSocketCannotBeWatchedClosesAndIsReported() async throws {
        let messages = Locked<[String]>([])
        var configuration = HTTPServerConfiguration()
        configuration.connectionQueueCount = 1
        configuration.headerTimeoutSeconds = 600 // only the failure handling can close it in time
        let core = ServerCore(configuration: configuration,
                              responder: { _ in .ready(HTTPResponse(body: [])) },
                              accessLog: nil, log: { messages.append($0) })
        let fd = try Self.regularFile() // owned by the connection from here on: it closes it
        let owner = core.loops[0]
        owner.loop.sync { core.accepted(fd: fd, remoteAddress: "", on: owner) }
        #expect(await waitUntil(timeout: 10) {
            core.snapshot().isEmpty && core.openCount.load(ordering: .relaxed) == 0
        })
        #expect(messages.value.contains { $0.contains("EPOLL_CTL_ADD") && $0.contains("closing the connection") })
    }

    /// The same path for a change of interest: the connection's socket is swapped for a
    /// regular file behind its back (`dup2`, which also drops the socket's registration), then
    /// the connection reads that file's EOF and asks to stop reading: epoll refuses the change,
    /// so the connection closes and says why; the removal that follows fails too and is logged.
    @Test func aConnectionWhoseInterestCannotBeChangedClosesAndIsReported() async throws {
        let messages = Locked<[String]>([])
        var configuration = HTTPServerConfiguration()
        configuration.connectionQueueCount = 1
        configuration.headerTimeoutSeconds = 600
        let core = ServerCore(configuration: configuration,
                              responder: { _ in .ready(HTTPResponse(body: [])) },
                              accessLog: nil, log: { messages.append($0) })
        var pair: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[1]) }
        _ = fcntl(pair[0], F_SETFL, O_NONBLOCK)
        let owner = core.loops[0]
        owner.loop.sync { [fd = pair[0]] in core.accepted(fd: fd, remoteAddress: "", on: owner) }
        #expect(await waitUntil(timeout: 10) { core.snapshot().first?.isReclaimable == true })
        let file = try Self.regularFile()
        defer { close(file) }
        let connection = try #require(core.snapshot().first)
        connection.owner.loop.sync {
            _ = dup2(file, connection.fd)
            connection.readable() // EOF: stop reading → EPOLL_CTL_MOD on a file epoll never saw
        }
        #expect(await waitUntil(timeout: 10) {
            core.snapshot().isEmpty && core.openCount.load(ordering: .relaxed) == 0
        })
        #expect(messages.value.contains { $0.contains("EPOLL_CTL_MOD") && $0.contains("closing the connection") })
        #expect(messages.value.contains { $0.contains("EPOLL_CTL_DEL") })
    }
}

