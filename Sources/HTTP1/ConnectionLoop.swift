import Synchronization
import Transport

extension Connection: SocketReadinessHandler {}

/// One of the server's event loops (one per CPU by default), with its listening socket and
/// the scratch memory its connections share.
///
/// A connection is accepted by a loop's own listening socket (`SO_REUSEPORT`: the kernel
/// spreads new connections over the loops' sockets), and lives on that loop until it closes:
/// read, answered, timed and written on the loop's thread. The loop's connections run one at
/// a time, so they share one read buffer, one head buffer and one `Date` header, which keeps an
/// idle connection down to its object, its timer slot and its parser, and a cached hit away
/// from anything another loop touches. Everything here is touched only on `loop`'s thread,
/// hence `@unchecked Sendable`.
final class ConnectionLoop: @unchecked Sendable {
    let loop: EventLoop<Connection>
    /// Where every read on this loop lands before the parser copies what it needs.
    let readBuffer: UnsafeMutableRawBufferPointer
    /// This loop's generated request ids (a counter no other loop touches).
    let requestIDs: RequestIDSource
    /// This loop's connections that may be closed to make room at `maxConnections`.
    let reclaimables = ReclaimableConnections()
    /// TCP connections this loop accepted (refused ones included). Written by this loop only, so
    /// the cache line is not shared with other loops; readers sum the loops' counts.
    let acceptedCount = Atomic<Int>(0)
    /// Connections living on this loop (admitted, not yet closed; refused ones not counted):
    /// where `LoopPlacement.adaptive` puts the next one. Changed on accept and close only.
    let openConnections = Atomic<Int>(0)
    /// Connections this loop should still let go (`LoopGovernor.Outcome.shed`): each of the
    /// next that many responses says `Connection: close`, so the client reconnects and is placed
    /// anew. Set by `LoopGovernance`; read with one load per response, written only when it
    /// is not zero.
    let shedQuota = Atomic<Int>(0)
    /// Connections this loop closed to even out the loops, so far.
    let shedCount = Atomic<Int>(0)
    /// This loop's listening socket, between `HTTPServer.start()` and shutdown.
    var listener: Listener<Connection>?
    /// What every response on this loop changes, behind a pointer so that a hit pays no
    /// run-time exclusivity check for it (each access to a class's stored `var` does; see
    /// `Connection.State`, which is kept the same way and for the same reason).
    private struct Shared {
        /// Response heads are serialized here; only a partially written head is copied out.
        var headScratch: UnsafeMutableRawBufferPointer
        /// This loop's `Date` header, formatted at most once per second.
        var date = HTTPDateCache()
        /// An access-log flush is queued behind the work in hand (see `scheduleLogFlush`).
        var logFlushScheduled = false
    }

    private let shared: UnsafeMutablePointer<Shared>

    /// This loop's `Date` header value for the current second, and the `200 OK` head prefix
    /// with it (`ResponseHead.okPrefix`).
    func currentDate(serverName: String) -> (date: [UInt8], okPrefix: [UInt8]) {
        shared.pointee.date.current(serverName: serverName)
    }

    /// Runs `flush` once on this loop after the current batch: lines logged during a batch of
    /// ready sockets go out together, before the loop waits again.
    func scheduleLogFlush(_ flush: @escaping @Sendable () -> Void) {
        guard !shared.pointee.logFlushScheduled else { return }
        shared.pointee.logFlushScheduled = true
        loop.afterBatch { [self] in
            shared.pointee.logFlushScheduled = false
            flush()
        }
    }

    /// True when the response about to be written should close its connection to even out
    /// the loops (and takes one from the quota).
    @inline(__always)
    func shedsConnection() -> Bool {
        shedQuota.load(ordering: .relaxed) > 0 && takeShed()
    }

    @inline(never)
    private func takeShed() -> Bool {
        var left = shedQuota.load(ordering: .relaxed)
        while left > 0 {
            let (exchanged, original) = shedQuota.compareExchange(expected: left, desired: left - 1, ordering: .relaxed)
            if exchanged {
                shedCount.add(1, ordering: .relaxed)
                return true
            }
            left = original
        }
        return false
    }

    /// Loop `index` of the server's `count`.
    init(index: Int, count: Int, readBufferSize: Int = 64 * 1024) {
        loop = EventLoop()
        requestIDs = RequestIDSource(index: index, count: count)
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readBufferSize, alignment: 16)
        shared = UnsafeMutablePointer<Shared>.allocate(capacity: 1)
        shared.initialize(to: Shared(headScratch: UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)))
    }

    deinit {
        readBuffer.deallocate()
        shared.pointee.headScratch.deallocate()
        shared.deinitialize(count: 1)
        shared.deallocate()
    }

    /// The head scratch, grown first when a head needs more than it holds. Whatever pointed
    /// into it before is invalid afterwards: a connection uses it only between serializing a
    /// head and handing it to `sendmsg` (a partial write copies the rest out).
    func headScratch(atLeast bytes: Int) -> UnsafeMutableRawBufferPointer {
        let scratch = shared.pointee.headScratch
        guard bytes > scratch.count else { return scratch }
        var size = scratch.count
        while size < bytes { size *= 2 }
        scratch.deallocate()
        shared.pointee.headScratch = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        return shared.pointee.headScratch
    }
}
