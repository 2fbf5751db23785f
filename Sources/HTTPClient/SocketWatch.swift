import CCurl
import Dispatch

/// The Dispatch read/write sources watching one of libcurl's sockets for the interest curl
/// last asked for (CURLMOPT_SOCKETFUNCTION). Sources are suspended when curl loses interest in
/// a direction and cancelled when it forgets the socket; the engine closes the fd only after
/// every cancel handler ran, so libdispatch never watches a closed or reused descriptor.
/// Confined to the engine's serial queue (not Sendable).
final class SocketWatch {
    let fd: curl_socket_t
    /// curl asked to close the socket while its sources were being cancelled.
    var closeRequested = false
    private let queue: DispatchQueue
    private let onEvent: (Int32) -> Void
    private var read = Direction()
    private var write = Direction()

    /// One direction's source and whether it is resumed.
    private struct Direction {
        var source: (any DispatchSourceProtocol)?
        var running = false

        /// Resumes, creates (`make`) or suspends the source so that it runs exactly when `wanted`.
        mutating func want(_ wanted: Bool, make: () -> any DispatchSourceProtocol) {
            if wanted {
                if let source {
                    if !running { source.resume() }
                } else {
                    let made = make()
                    made.activate()
                    source = made
                }
                running = true
            } else if let source, running {
                source.suspend()
                running = false
            }
        }
    }

    init(fd: curl_socket_t, queue: DispatchQueue, onEvent: @escaping (Int32) -> Void) {
        self.fd = fd
        self.queue = queue
        self.onEvent = onEvent
    }

    /// Applies curl's `what` (CURL_POLL_IN / OUT / INOUT / NONE).
    func watch(read wantRead: Bool, write wantWrite: Bool) {
        read.want(wantRead) { reporting(DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue), as: CURL_CSELECT_IN) }
        write.want(wantWrite) { reporting(DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue), as: CURL_CSELECT_OUT) }
    }

    /// `source`, reporting its events to the engine as `event`.
    private func reporting(_ source: any DispatchSourceProtocol, as event: Int32) -> any DispatchSourceProtocol {
        let onEvent = self.onEvent
        source.setEventHandler { onEvent(event) }
        return source
    }

    /// Cancels both sources and calls `done` (on the queue) once both cancel handlers ran,
    /// or at once when there are none.
    func cancel(then done: @escaping () -> Void) {
        let sources = [read, write].compactMap { direction in direction.source.map { ($0, direction.running) } }
        read = Direction()
        write = Direction()
        guard !sources.isEmpty else {
            done()
            return
        }
        var remaining = sources.count
        for (source, isRunning) in sources {
            source.setCancelHandler {
                remaining -= 1
                if remaining == 0 { done() }
            }
            source.cancel()
            // A suspended source runs its cancel handler only once resumed.
            if !isRunning { source.resume() }
        }
    }
}
