import CCurl
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// One long-lived libcurl multi handle driven by curl's socket and timer callbacks on one serial
/// Dispatch queue: no thread ever blocks in curl, and connections are pooled across transfers.
/// @unchecked Sendable: after init, all state is used only on `queue`.
final class CurlMultiEngine: @unchecked Sendable {
    let queue = DispatchQueue(label: "almanac.curl-multi")
    private let multi: UnsafeMutableRawPointer
    private let timer: DispatchSourceTimer
    /// Sockets curl currently wants watched.
    private var watches: [curl_socket_t: SocketWatch] = [:]
    /// Sockets whose sources are being cancelled; the fd is neither closed nor watched again
    /// until that completes.
    private var retiring: [curl_socket_t: SocketWatch] = [:]
    /// Interest curl expressed for a socket while it was retiring, applied afterwards.
    private var deferredInterest: [curl_socket_t: (read: Bool, write: Bool)] = [:]
    private var isShutDown = false

    init(maxConnectionsPerHost: Int, maxConnectionsTotal: Int) {
        CurlGlobal.ensureInitialised()
        guard let multi = curl_multi_init() else { fatalError("curl_multi_init failed") }
        self.multi = multi
        timer = DispatchSource.makeTimerSource(queue: queue)
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = ccurl_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, me)
        _ = ccurl_multi_setopt_socket_function(multi) { _, fd, what, userp, _ in
            Unmanaged<CurlMultiEngine>.fromOpaque(userp!).takeUnretainedValue().updateSocket(fd, what: what)
            return 0
        }
        _ = ccurl_multi_setopt_pointer(multi, CURLMOPT_TIMERDATA, me)
        _ = ccurl_multi_setopt_timer_function(multi) { _, timeoutMs, userp in
            Unmanaged<CurlMultiEngine>.fromOpaque(userp!).takeUnretainedValue().updateTimer(timeoutMs)
            return 0
        }
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, max(1, maxConnectionsPerHost))
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, max(1, maxConnectionsTotal))
        // The idle pool may hold as many connections as may be open at once.
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, max(1, maxConnectionsTotal))
        timer.setEventHandler { [weak self] in self?.socketAction(ccurl_socket_timeout, events: 0) }
        timer.schedule(deadline: .distantFuture)
        timer.activate()
    }

    /// Runs one hop; never throws: cancellation of the calling task yields `.cancelled`.
    func perform(_ spec: TransferSpec) async -> TransferOutcome {
        let transfer = CurlTransfer(spec: spec)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                queue.async {
                    transfer.attach(continuation)
                    self.start(transfer)
                }
            }
        } onCancel: {
            queue.async { self.cancel(transfer) }
        }
    }

    /// Closes every pooled connection and frees the multi handle (after in-flight work).
    func shutdown() {
        queue.async {
            self.isShutDown = true
            self.timer.cancel()
            curl_multi_cleanup(self.multi)
        }
    }

    // MARK: transfers (queue)

    private func start(_ transfer: CurlTransfer) {
        dispatchPrecondition(condition: .onQueue(queue))
        if transfer.wasCancelledBeforeStart || isShutDown {
            transfer.finish(.failure(.cancelled, detail: "cancelled before the request was sent"))
            return
        }
        if let failure = transfer.prepare(closeSocketData: Unmanaged.passUnretained(self).toOpaque()) {
            transfer.finish(failure)
            return
        }
        let code = curl_multi_add_handle(multi, transfer.easy)
        guard code == CURLM_OK else {
            transfer.finish(.failure(.other, detail: "curl_multi_add_handle: \(String(cString: curl_multi_strerror(code)))"))
            return
        }
        transfer.markRunning()
    }

    private func cancel(_ transfer: CurlTransfer) {
        dispatchPrecondition(condition: .onQueue(queue))
        if transfer.running {
            // Removing a handle mid-response makes curl close (not pool) its connection.
            curl_multi_remove_handle(multi, transfer.easy)
            transfer.finish(.failure(.cancelled, detail: "cancelled by the caller"))
        } else {
            transfer.requestCancelBeforeStart()
        }
    }

    private func socketAction(_ fd: curl_socket_t, events: Int32) {
        guard !isShutDown else { return }
        var running: Int32 = 0
        _ = curl_multi_socket_action(multi, fd, events, &running)
        collectFinished()
    }

    private func collectFinished() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            var pointer: UnsafeMutableRawPointer?
            _ = ccurl_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &pointer)
            guard let pointer else { continue }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(pointer).takeUnretainedValue()
            let outcome = transfer.outcome(for: code)
            curl_multi_remove_handle(multi, easy)
            transfer.finish(outcome)
        }
    }

    // MARK: curl callbacks (queue, inside curl_multi_* calls)

    private func updateTimer(_ timeoutMs: Int) {
        if timeoutMs < 0 {
            timer.schedule(deadline: .distantFuture)
        } else {
            // 0 means "now": the timer fires on the queue after this callback returns, as curl
            // forbids calling curl_multi_socket_action from inside its callbacks.
            timer.schedule(deadline: .now() + .milliseconds(timeoutMs))
        }
    }

    private func updateSocket(_ fd: curl_socket_t, what: Int32) {
        if what == CURL_POLL_REMOVE {
            deferredInterest[fd] = nil
            if let watch = watches.removeValue(forKey: fd) { retire(watch) }
            return
        }
        let wantRead = what == CURL_POLL_IN || what == CURL_POLL_INOUT
        let wantWrite = what == CURL_POLL_OUT || what == CURL_POLL_INOUT
        if let watch = watches[fd] {
            watch.watch(read: wantRead, write: wantWrite)
        } else if retiring[fd] != nil {
            deferredInterest[fd] = (wantRead, wantWrite)
        } else {
            let watch = SocketWatch(fd: fd, queue: queue) { [weak self] events in
                self?.socketAction(fd, events: events)
            }
            watches[fd] = watch
            watch.watch(read: wantRead, write: wantWrite)
        }
    }

    /// CURLOPT_CLOSESOCKETFUNCTION: closes now, or once the socket's sources are cancelled.
    func closeSocket(_ fd: curl_socket_t) -> Int32 {
        deferredInterest[fd] = nil
        if let watch = watches.removeValue(forKey: fd) {
            watch.closeRequested = true
            retire(watch)
        } else if let watch = retiring[fd] {
            watch.closeRequested = true
        } else {
            close(fd)
        }
        return 0
    }

    private func retire(_ watch: SocketWatch) {
        let fd = watch.fd
        retiring[fd] = watch
        // Strong capture: the fd must be closed even when the client was released meanwhile.
        watch.cancel { [self] in
            retiring[fd] = nil
            if watch.closeRequested {
                close(fd)
            } else if let interest = deferredInterest.removeValue(forKey: fd) {
                updateSocket(fd, what: interest.read && interest.write ? CURL_POLL_INOUT : interest.read ? CURL_POLL_IN : interest.write ? CURL_POLL_OUT : CURL_POLL_NONE)
            }
        }
    }
}
