import Dispatch

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
    var headBuffer: [UInt8] = []
    /// Readiness of this queue's sockets.
    let poller: SocketPoller

    init(label: String, readBufferSize: Int = 64 * 1024) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
        poller = SocketPoller(queue: queue)
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readBufferSize, alignment: 16)
        headBuffer.reserveCapacity(1024)
    }

    deinit { readBuffer.deallocate() }
}
