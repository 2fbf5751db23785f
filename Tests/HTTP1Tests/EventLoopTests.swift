import Dispatch
import Testing
import TestSupport
@testable import Transport
#if canImport(Glibc)
import Glibc
#endif

/// The event loop itself: handed-in work, timers and "after this batch" callbacks, each on
/// the loop's thread; a socket's readiness delivered to its handler there.
@Suite struct EventLoopTests {
    /// Records readiness, and on which thread it came.
    final class Recorder: SocketReadinessHandler, @unchecked Sendable {
        let events = Locked<[String]>([])
        var loop: EventLoop<Recorder>?
        let fd: Int32
        init(fd: Int32) { self.fd = fd }
        func readable() {
            var byte: UInt8 = 0
            _ = read(fd, &byte, 1)
            events.append("readable \(loop?.inEventLoop == true)")
        }
        func writable() {}
    }

    /// What `LoopGovernor` calls a loop's busy time: the loop thread's CPU clock, read from
    /// another thread; it grows with work on the loop, not while the loop sleeps.
    @Test func theLoopThreadsCPUTimeIsReadableFromAnyThread() async throws {
        let loop = EventLoop<Recorder>()
        #expect(await waitUntil { loop.threadCPUNanoseconds() != nil })
        let before = try #require(loop.threadCPUNanoseconds())
        // 30 ms of work on the loop's thread (spinning on its own CPU clock, so a busy machine
        // that lends the thread less of a processor only makes the wait longer).
        loop.sync {
            var start = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
            var now = start
            while (now.tv_sec - start.tv_sec) * 1_000_000_000 + (now.tv_nsec - start.tv_nsec) < 30_000_000 {
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
            }
        }
        let after = try #require(loop.threadCPUNanoseconds())
        #expect(after >= before + 30_000_000)
        loop.stop()
        #expect(await waitUntil { loop.threadCPUNanoseconds() == nil })
    }

    @Test func workHandedInFromOtherThreadsRunsOnTheLoopInOrder() async {
        let loop = EventLoop<Recorder>()
        defer { loop.stop() }
        #expect(!loop.inEventLoop)
        let seen = Locked<[Int]>([])
        let offLoop = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for i in 0..<100 {
                loop.execute {
                    if !loop.inEventLoop { offLoop.increment() }
                    if worker == 0 { seen.append(i) }
                }
            }
        }
        #expect(await waitUntil { loop.sync { seen.value.count } == 100 })
        #expect(seen.value == Array(0..<100)) // one thread's work keeps its order
        #expect(offLoop.value == 0)
        #expect(loop.sync { loop.inEventLoop })
    }

    @Test func timersFireOnTheLoopInDeadlineOrder() async {
        let loop = EventLoop<Recorder>()
        defer { loop.stop() }
        let fired = Locked<[String]>([])
        let start = DispatchTime.now().uptimeNanoseconds
        loop.execute {
            for (name, ms) in [("third", 30), ("first", 10), ("second", 20)] {
                let timer = loop.addTimer { fired.append(loop.inEventLoop ? name : "off-loop") }
                loop.arm(timer, at: start + UInt64(ms) * 1_000_000)
            }
            let cancelled = loop.addTimer { fired.append("cancelled") }
            loop.arm(cancelled, at: start + 5_000_000)
            loop.removeTimer(cancelled)
        }
        #expect(await waitUntil { fired.value.count == 3 })
        #expect(fired.value == ["first", "second", "third"])
        #expect(DispatchTime.now().uptimeNanoseconds - start >= 30_000_000) // not before its deadline
    }

    @Test func afterBatchRunsOnceTheBatchIsDoneBeforeTheNextBatch() async {
        let loop = EventLoop<Recorder>()
        defer { loop.stop() }
        let order = Locked<[String]>([])
        loop.execute {
            loop.afterBatch { order.append("after") }
            loop.execute { order.append("next batch") } // handed in during this batch
            order.append("work")
        }
        #expect(await waitUntil { order.value.count == 3 })
        #expect(order.value == ["work", "after", "next batch"])
    }

    @Test func eachLoopCountsIntoItsOwnShardAndOtherThreadsIntoTheSharedOne() {
        let loops = (0..<3).map { _ in EventLoop<Recorder>() }
        defer { for loop in loops { loop.stop() } }
        let shards = loops.map { loop in loop.sync { LoopShard.current } }
        #expect(Set(shards).count == 3)
        #expect(shards.allSatisfy { (1..<LoopShard.count).contains($0) })
        #expect(LoopShard.current == 0)
    }

    @Test func aReadySocketIsDeliveredToItsHandlerOnTheLoop() async throws {
        let loop = EventLoop<Recorder>()
        defer { loop.stop() }
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let recorder = Recorder(fd: ends[0])
        recorder.loop = loop
        let registered = loop.sync { loop.sockets.register(recorder, fd: recorder.fd, interest: .reading) == nil }
        #expect(registered)
        var byte: UInt8 = 1
        #expect(write(ends[1], &byte, 1) == 1)
        #expect(await waitUntil { recorder.events.value == ["readable true"] })
        _ = loop.sync { loop.sockets.remove(fd: recorder.fd) }
    }
}
