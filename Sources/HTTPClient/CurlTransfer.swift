import CCurl

/// One hop in flight: owns its easy handle, header list and error buffer, and collects the
/// response within its limits. Its callbacks receive it through a pointer retained once when
/// the handle joins the multi handle and released exactly once when it leaves.
/// @unchecked Sendable: after init, every member is used only on the engine's serial queue.
final class CurlTransfer: @unchecked Sendable {
    let spec: TransferSpec
    private(set) var easy: UnsafeMutableRawPointer?
    private var continuation: CheckedContinuation<TransferOutcome, Never>?
    private var cancelRequested = false
    private var isRunning = false
    private var retained: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var headerParser = ResponseHeaderParser()
    private var body: [UInt8] = []
    private var abort: TransferAbort?
    private var stall: StallGuard

    init(spec: TransferSpec) {
        self.spec = spec
        created = spec.clock.now()
        stall = StallGuard(minBytesPerSecond: spec.client.stallBytesPerSecond, seconds: Double(spec.client.stallSeconds))
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        errorBuffer.deallocate()
    }

    // MARK: lifecycle (engine queue only)

    /// Creates and configures the easy handle and retains `self` for the callbacks.
    /// Returns nil on success, or a failure the caller reports via `finish`.
    func prepare(closeSocketData: UnsafeMutableRawPointer) -> TransferOutcome? {
        guard let easy = curl_easy_init() else { return .failure(.other, detail: "curl_easy_init failed") }
        self.easy = easy
        let me = Unmanaged.passRetained(self).toOpaque()
        retained = me
        if let problem = configure(easy, me: me, closeSocketData: closeSocketData) { return problem }
        return nil
    }

    /// The handle is running inside the multi handle.
    func markRunning() { isRunning = true }
    var running: Bool { isRunning }

    /// True when the caller gave up before the transfer was started.
    var wasCancelledBeforeStart: Bool { cancelRequested }
    func requestCancelBeforeStart() { cancelRequested = true }

    func attach(_ continuation: CheckedContinuation<TransferOutcome, Never>) {
        self.continuation = continuation
    }

    /// Builds the outcome for libcurl's final `code` (the handle already left the multi handle).
    func outcome(for code: CURLcode) -> TransferOutcome {
        guard let easy else { return .failure(.other, detail: "no handle") }
        guard code == CURLE_OK else {
            let kind = CurlErrorMapping.kind(for: code, abort: abort)
            let detail: String
            switch abort {
            case .tooLarge(let why)?, .malformed(let why)?, .stalled(let why)?: detail = why
            case nil:
                let buffered = String(cString: errorBuffer)
                detail = buffered.isEmpty ? CurlErrorMapping.message(for: code) : buffered
            }
            return .failure(kind, detail: detail)
        }
        var status = 0
        _ = ccurl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        var redirect: UnsafeMutablePointer<CChar>?
        _ = ccurl_easy_getinfo_string(easy, CURLINFO_REDIRECT_URL, &redirect)
        let response = UpstreamResponse(status: status, headers: headerParser.fields, body: body, effectiveURL: spec.url)
        return .response(response, redirectURL: redirect.map { String(cString: $0) })
    }

    /// Frees the handle, resumes the waiting task and drops the callbacks' retain: exactly once.
    func finish(_ outcome: TransferOutcome) {
        isRunning = false
        if let easy { curl_easy_cleanup(easy) }
        easy = nil
        if let headerList { curl_slist_free_all(headerList) }
        headerList = nil
        body = []
        continuation?.resume(returning: outcome)
        continuation = nil
        if let retained { Unmanaged<CurlTransfer>.fromOpaque(retained).release() }
        retained = nil
    }

    // MARK: callbacks (engine queue, inside curl_multi_socket_action)

    /// When this transfer was made, on the call's clock (`spec.clock`): the stall guard
    /// counts seconds from it. libcurl calls the guard in real time (its progress ticks); the
    /// seconds it judges by are the injected clock's, like every other time of the call.
    private let created: Double
    private func now() -> Double { spec.clock.now() - created }

    /// libcurl's progress tick (at least once a second while the transfer runs): false aborts
    /// the transfer because the answer stalled.
    fileprivate func progress() -> Bool {
        guard stall.hasStalled(now: now()) else { return true }
        abort = .stalled("stalled: under \(stall.minBytesPerSecond) bytes a second for \(spec.client.stallSeconds) s after the first byte")
        return false
    }

    fileprivate func receiveHeader(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        stall.received(bytes.count, now: now())
        if let problem = headerParser.consume(ArraySlice(bytes), maxResponseBytes: spec.maxResponseBytes) {
            abort = problem
            return false
        }
        return true
    }

    fileprivate func receiveBody(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        stall.received(bytes.count, now: now())
        guard body.count + bytes.count <= spec.maxResponseBytes else {
            abort = .tooLarge("response body exceeds the limit of \(spec.maxResponseBytes) bytes")
            return false
        }
        if body.isEmpty, let length = headerParser.contentLength {
            body.reserveCapacity(min(length, spec.maxResponseBytes))
        }
        body.append(contentsOf: bytes)
        return true
    }

    // MARK: options

    private func configure(_ easy: UnsafeMutableRawPointer, me: UnsafeMutableRawPointer,
                           closeSocketData: UnsafeMutableRawPointer) -> TransferOutcome? {
        var failed: (String, CURLcode)?
        func check(_ name: String, _ code: CURLcode) {
            if code != CURLE_OK, failed == nil { failed = (name, code) }
        }
        check("URL", ccurl_easy_setopt_string(easy, CURLOPT_URL, spec.url))
        check("PRIVATE", ccurl_easy_setopt_pointer(easy, CURLOPT_PRIVATE, me))
        check("ERRORBUFFER", ccurl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer))
        // Signals from libcurl (SIGALRM for DNS timeouts) are unsafe in a multi-threaded process.
        check("NOSIGNAL", ccurl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1))
        check("PROTOCOLS_STR", ccurl_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"))
        check("REDIR_PROTOCOLS_STR", ccurl_easy_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"))
        // Redirects are followed by CurlHTTPClient, one hop per transfer, so every target's
        // scheme and host is checked before any connection is made to it.
        check("FOLLOWLOCATION", ccurl_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0))
        check("HTTP_VERSION", ccurl_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1))
        check("CONNECTTIMEOUT_MS", ccurl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, max(1, min(spec.client.connectTimeoutMs, spec.timeoutMs))))
        check("TIMEOUT_MS", ccurl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, max(1, spec.timeoutMs)))
        if stall.isEnabled {
            // The stall guard is ours (`StallGuard`: it starts at the first byte; libcurl's
            // low-speed check starts at the request). libcurl's check is set only so that it
            // wakes the transfer once a second to call the progress callback, even while no
            // byte arrives; its time is past the deadline, so it never fires itself.
            check("LOW_SPEED_LIMIT", ccurl_easy_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, 1))
            check("LOW_SPEED_TIME", ccurl_easy_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, spec.timeoutMs / 1000 + 2))
            check("NOPROGRESS", ccurl_easy_setopt_long(easy, CURLOPT_NOPROGRESS, 0))
            check("XFERINFODATA", ccurl_easy_setopt_pointer(easy, CURLOPT_XFERINFODATA, me))
            check("XFERINFOFUNCTION", ccurl_easy_setopt_xferinfo_function(easy) { clientp, _, _, _, _ in
                guard let clientp else { return 0 }
                return Unmanaged<CurlTransfer>.fromOpaque(clientp).takeUnretainedValue().progress() ? 0 : 1
            })
        }
        check("ACCEPT_ENCODING", ccurl_easy_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, spec.client.acceptEncoding))
        check("MAXFILESIZE_LARGE", ccurl_easy_setopt_off_t(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(spec.maxResponseBytes)))
        check("USERAGENT", ccurl_easy_setopt_string(easy, CURLOPT_USERAGENT, spec.client.userAgent))
        check("TCP_KEEPALIVE", ccurl_easy_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1))
        for header in spec.headers where !header.name.isEmpty {
            guard !(header.name + header.value).contains(where: { $0 == "\r" || $0 == "\n" }) else {
                return .failure(.invalidURL, detail: "request header \(header.name) contains a line break")
            }
            headerList = curl_slist_append(headerList, "\(header.name): \(header.value)")
        }
        if let headerList { check("HTTPHEADER", ccurl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList)) }

        check("WRITEDATA", ccurl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, me))
        // Returning anything but the length handed over makes libcurl stop with CURLE_WRITE_ERROR.
        check("WRITEFUNCTION", ccurl_easy_setopt_write_function(easy, CURLOPT_WRITEFUNCTION) { data, size, count, userdata in
            let (transfer, bytes) = CurlTransfer.delivery(data, size, count, userdata)
            return transfer.receiveBody(bytes) ? bytes.count : 0
        })
        check("HEADERDATA", ccurl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, me))
        check("HEADERFUNCTION", ccurl_easy_setopt_write_function(easy, CURLOPT_HEADERFUNCTION) { data, size, count, userdata in
            let (transfer, bytes) = CurlTransfer.delivery(data, size, count, userdata)
            return transfer.receiveHeader(bytes) ? bytes.count : 0
        })
        // Sockets are closed by the engine once their Dispatch sources are cancelled.
        check("CLOSESOCKETDATA", ccurl_easy_setopt_pointer(easy, CURLOPT_CLOSESOCKETDATA, closeSocketData))
        check("CLOSESOCKETFUNCTION", ccurl_easy_setopt_closesocket_function(easy) { clientp, fd in
            Unmanaged<CurlMultiEngine>.fromOpaque(clientp!).takeUnretainedValue().closeSocket(fd)
        })
        if let (name, code) = failed {
            return .failure(.other, detail: "curl option \(name) rejected: \(CurlErrorMapping.message(for: code))")
        }
        return nil
    }
}

extension CurlTransfer {
    /// What a write or header callback was handed: the transfer (its `userdata`, set to it with
    /// WRITEDATA / HEADERDATA) and the `size * count` bytes at `data`.
    fileprivate static func delivery(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
                                     _ userdata: UnsafeMutableRawPointer?) -> (CurlTransfer, UnsafeBufferPointer<UInt8>) {
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata!).takeUnretainedValue()
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(data).map { $0.assumingMemoryBound(to: UInt8.self) }, count: size * count)
        return (transfer, bytes)
    }
}
