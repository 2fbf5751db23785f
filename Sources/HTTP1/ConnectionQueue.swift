import Dispatch
import Transport

extension Connection: SocketReadinessHandler {}

/// The server's poller. Generic over the handler type so that the per-event calls are direct
/// (specialized), not through an existential: the Redis client has a poller of its own type.
typealias SocketPoller = SocketReadinessPoller<Connection>

/// One of the few serial queues that own connections, with the scratch memory its
/// connections share.
///
/// Connections are spread over a few serial queues (one per CPU by default) instead of a queue (and
/// never a thread) each: a queue's connections run one at a time, so they can share one
/// read buffer and one head buffer, which keeps an idle connection down to its object,
/// its sources and its parser. Everything here is touched only on `queue`, hence
/// `@unchecked Sendable`.
final class ConnectionQueue: @unchecked Sendable {
    let queue: DispatchQueue
    /// Where every read on this queue lands before the parser copies what it needs.
    let readBuffer: UnsafeMutableRawBufferPointer
    /// Response heads are serialized here; only a partially written head is copied out.
    private(set) var headScratch: UnsafeMutableRawBufferPointer
    /// Readiness of this queue's sockets.
    let poller: SocketPoller
    /// This queue's connections that may be closed to make room at `maxConnections`.
    let reclaimables = ReclaimableConnections()
    /// An access-log flush is queued behind the work in hand (see `scheduleLogFlush`).
    private var logFlushScheduled = false

    /// Runs `flush` once on this queue after the work in hand: lines logged during a batch of
    /// ready sockets go out together, before the queue goes idle. Called on `queue`.
    func scheduleLogFlush(_ flush: @escaping @Sendable () -> Void) {
        guard !logFlushScheduled else { return }
        logFlushScheduled = true
        queue.async { [self] in
            logFlushScheduled = false
            flush()
        }
    }

    init(label: String, readBufferSize: Int = 64 * 1024) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
        poller = SocketPoller(queue: queue)
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readBufferSize, alignment: 16)
        headScratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
    }

    deinit {
        readBuffer.deallocate()
        headScratch.deallocate()
    }

    /// The head scratch, grown first when a head needs more than it holds. Whatever pointed
    /// into it before is invalid afterwards: a connection uses it only between serializing a
    /// head and handing it to `sendmsg` (a partial write copies the rest out).
    func headScratch(atLeast bytes: Int) -> UnsafeMutableRawBufferPointer {
        if bytes > headScratch.count {
            var size = headScratch.count
            while size < bytes { size *= 2 }
            headScratch.deallocate()
            headScratch = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        }
        return headScratch
    }
}
