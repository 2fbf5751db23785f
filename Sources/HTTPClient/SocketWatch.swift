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
    private var read: DispatchSourceRead?
    private var write: DispatchSourceWrite?
    private var readRunning = false
    private var writeRunning = false

    init(fd: curl_socket_t, queue: DispatchQueue, onEvent: @escaping (Int32) -> Void) {
        self.fd = fd
        self.queue = queue
        self.onEvent = onEvent
    }

    /// Applies curl's `what` (CURL_POLL_IN / OUT / INOUT / NONE).
    func watch(read wantRead: Bool, write wantWrite: Bool) {
        if wantRead {
            if let read {
                if !readRunning { read.resume() }
            } else {
                let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
                let onEvent = self.onEvent
                source.setEventHandler { onEvent(CURL_CSELECT_IN) }
                source.activate()
                read = source
            }
            readRunning = true
        } else if let read, readRunning {
            read.suspend()
            readRunning = false
        }
        if wantWrite {
            if let write {
                if !writeRunning { write.resume() }
            } else {
                let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
                let onEvent = self.onEvent
                source.setEventHandler { onEvent(CURL_CSELECT_OUT) }
                source.activate()
                write = source
            }
            writeRunning = true
        } else if let write, writeRunning {
            write.suspend()
            writeRunning = false
        }
    }

    /// Cancels both sources and calls `done` (on the queue) once both cancel handlers ran,
    /// or at once when there are none.
    func cancel(then done: @escaping () -> Void) {
        var sources: [(DispatchSourceProtocol, Bool)] = []
        if let read { sources.append((read, readRunning)) }
        if let write { sources.append((write, writeRunning)) }
        read = nil
        write = nil
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
