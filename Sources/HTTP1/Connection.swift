import Base
import Dispatch
import Transport

/// One accepted socket, driven by its owner loop's epoll set and timers: it reads into its
/// loop's shared buffer, feeds the parser, and executes what `ConnectionStateMachine`
/// decides. All protocol decisions live in the state machine; this type only does I/O.
///
/// Lifecycle: the loop's `SocketReadinessSet` reports when `fd` is readable (and, only while
/// output is pending, writable); the descriptor is removed from it before it is closed, and
/// the close happens exactly once, after the batch in which the set let go of it. Confined to
/// `owner.loop`'s thread, hence `@unchecked Sendable`. A socket the poller cannot watch (a failed
/// `epoll_ctl`) closes at once and is logged: nothing would ever report it ready again.
final class Connection: @unchecked Sendable {
    let id: Int
    let fd: Int32
    let owner: ConnectionLoop
    private let core: ServerCore
    private let remoteAddress: String
    /// True for a connection accepted past `maxConnections` with nothing to reclaim: it only
    /// gets the 503. Decided before `start()` (by the loop that accepted it, or by the loop
    /// that tried to make room for it) and never changed afterwards.
    var isRejected: Bool

    private var machine: ConnectionStateMachine
    private var parser: RequestParser

    /// The connection's one timer on its loop (-1 before `start` and after the close).
    private var timer = -1
    /// What the loop watches `fd` for.
    private var interest = SocketInterest.reading
    /// The descriptor was handed back (unregistered, its close queued): no I/O on `fd` from
    /// here on. Set exactly when the state machine reaches `.closed` (its `.close` action is
    /// returned once), so wherever the machine is asked first (`canPullInput`, `reclaimable`)
    /// it needs no second check.
    private var closed = false
    /// Where this connection sits in its loop's reclaimable list, or -1 while unlisted.
    /// Listed (or moved to the tail) each time it begins to wait for a request; left listed
    /// while busy — the reclaim path drops busy entries (see `ReclaimableConnections`).
    private var reclaimHandle: ReclaimableConnections.Handle = -1
    /// `machine.requestCount` when last listed or moved: the entry is current while it matches.
    private var listedAfterRequests = 0

    // Output that the kernel has not taken yet. The head remainder is a private copy (the
    // head itself is serialized into the loop's shared buffer); the body is the response's
    // own copy-on-write storage, never copied.
    private var pendingHead: [UInt8] = []
    private var pendingHeadOffset = 0
    private var pendingBody: [UInt8] = []
    private var pendingBodyOffset = 0

    /// The request being answered, for the response head and the access log.
    private var current = CurrentRequest()
    /// Status and body size of the response being flushed; logged once it is fully written.
    private var pendingLog: (status: Int, bytes: Int)?
    private var inPullLoop = false
    /// When the loop event being handled began (0 between events): see `clock()`.
    private var eventTime: UInt64 = 0

    private struct CurrentRequest {
        var method = "-"
        var path = "-"
        var version = HTTPVersion.http1_1
        var isHead = false
        var requestID: RequestID = ""
        var startedAt: UInt64 = 0
        /// From `X-Forwarded-For`, only with `trustForwardedHeaders`.
        var forwardedFor: String?
        /// The caller's valid `traceparent`, if any (`RequestTrace.incoming`).
        var incomingTrace: TraceParent?
        /// The request's trace, once something needed it (see `RequestTrace`).
        var trace: TraceContext?

        /// The request's trace, made now if nothing needed it before.
        mutating func resolvedTrace() -> TraceContext {
            if let trace { return trace }
            let made = TraceContext.begin(from: incomingTrace)
            trace = made
            return made
        }
    }

    /// Stop reading while busy once this much input is buffered: pipelined requests wait in
    /// the kernel's socket buffer (TCP flow control), not in our memory.
    private static let readHighWater = 64 * 1024

    init(id: Int, fd: Int32, owner: ConnectionLoop, core: ServerCore, remoteAddress: String,
         isRejected: Bool, now: UInt64) {
        self.id = id
        self.fd = fd
        self.owner = owner
        self.core = core
        self.remoteAddress = remoteAddress
        self.isRejected = isRejected
        self.machine = ConnectionStateMachine(timeouts: core.timeouts, now: now)
        self.parser = RequestParser(limits: core.parserLimits)
    }

    // MARK: - Lifecycle (all on owner.loop)

    func start() {
        // Shutdown may have reached a connection whose start was still queued: it is closed
        // (and its descriptor with it), so there is nothing to watch.
        guard !closed else { return }
        timer = owner.loop.addTimer { [weak self] in
            guard let self else { return }
            self.execute(self.machine.timerFired(now: self.clock()))
        }
        if let failure = owner.loop.sockets.register(self, fd: fd, interest: interest) {
            pollingFailed(failure)
            return
        }

        let now = clock()
        execute(machine.start(now: now))
        if isRejected {
            execute(machine.parseError(status: .serviceUnavailable,
                                       detail: "The server is at its connection limit; retry shortly.", now: now))
        } else if core.isDraining {
            execute(machine.shutdownRequested(now: now))
        }
        noteWaiting()
    }

    func shutdownRequested() {
        execute(machine.shutdownRequested(now: clock()))
    }

    func forceClose() {
        execute(machine.forceClose())
    }

    var isClosed: Bool { closed }

    /// What `reclaim()` did with this (listed) connection.
    enum ReclaimResult {
        case reclaimed(ConnectionStateMachine.Reclaimable)
        /// The peer had already closed (EOF or reset found by the last read): closed now.
        case closedByPeer
        /// Busy (a request partly received, in flight, or its response being written): unlisted,
        /// left alone; it is listed again when it next waits for a request.
        case busy
        /// Waiting again, but it served a request just now (found by the last read): it is the
        /// newest entry now, left alone.
        case requeued
    }

    /// Called by the owner loop on the oldest entry of its reclaimable list, to make room for
    /// a newcomer. Closes this connection if the state machine says it is reclaimable and its
    /// entry is current. Bytes already waiting in the socket mean the client is not idle: they
    /// are read first (one `read`; EAGAIN for a really idle connection), so a request that
    /// arrived just now is served rather than cut, and a connection whose peer already left
    /// frees its slot without counting as reclaimed.
    func reclaim() -> ReclaimResult {
        let served = machine.requestCount
        if machine.reclaimable != nil, interest.read { readable() }
        if closed { return .closedByPeer }
        guard let state = machine.reclaimable else {
            unlist()
            return .busy
        }
        guard machine.requestCount == served, served == listedAfterRequests else {
            noteWaiting() // it served a request just now (the read above) and waits again
            return .requeued
        }
        execute(machine.reclaimRequested(now: clock()))
        return .reclaimed(state)
    }

    /// Keeps this connection's entry in its loop's reclaimable list current when it waits for
    /// a request: called where waiting can begin (start, and whenever the parser reports
    /// nothing buffered). Lists it the first time, moves it to the tail after each request
    /// it served, and does nothing while the entry is current.
    @inline(__always)
    private func noteWaiting() {
        guard reclaimHandle < 0 || machine.requestCount != listedAfterRequests,
              let since = machine.waitingSince else { return }
        listedAfterRequests = machine.requestCount
        if reclaimHandle < 0 {
            reclaimHandle = owner.reclaimables.list(self, since: since)
        } else {
            owner.reclaimables.waitsAgain(reclaimHandle, since: since)
        }
    }

    private func unlist() {
        guard reclaimHandle >= 0 else { return }
        owner.reclaimables.unlist(reclaimHandle)
        reclaimHandle = -1
    }

    /// True when the state machine would let this connection be reclaimed now (tests).
    var isReclaimable: Bool { machine.reclaimable != nil }

    private func closeNow() {
        closed = true
        unlist() // before the descriptor goes, and long before the registry lets go of us
        if timer >= 0 { owner.loop.removeTimer(timer) }
        timer = -1
        let failure = owner.loop.sockets.remove(fd: fd)
        // After the batch, not now: the caller is still running inside the connection, and
        // events for the descriptor may still be in the batch being delivered.
        owner.loop.afterBatch { [self] in
            SocketIO.close(fd)
            pendingBody = []
            core.connectionClosed(self)
        }
        if let failure { report(failure, then: "closing the descriptor drops the watch anyway") }
    }

    private func watch(_ wanted: SocketInterest) {
        guard wanted != interest, !closed else { return }
        if let failure = owner.loop.sockets.update(fd: fd, interest: wanted) {
            pollingFailed(failure)
            return
        }
        interest = wanted
    }

    /// epoll refused to watch the socket (or to change what it is watched for): the
    /// connection can no longer learn when it may read or write, so it closes at once,
    /// like a failed read or write, and the failure is logged.
    private func pollingFailed(_ failure: SocketPollingFailure) {
        report(failure, then: "closing the connection")
        execute(machine.ioFailed())
    }

    private func report(_ failure: SocketPollingFailure, then consequence: String) {
        core.log("connection \(id) (fd \(fd)): \(failure); \(consequence)")
    }

    // MARK: - Executing the state machine's steps

    /// Every step the state machine returns passes through here: its timer change is applied
    /// (the one place the connection's timer is scheduled), and its action is handed back
    /// to be carried out.
    @inline(__always)
    private func take<Action>(_ step: ConnectionStateMachine.Step<Action>) -> Action {
        if case let .arm(deadline) = step.timer {
            owner.loop.arm(timer, at: deadline)
        }
        return step.action
    }

    /// Carries out a step whose action needs nothing but the connection itself (the request
    /// and the response are passed where `requestReceived` and `responseReady` are called).
    private func execute(_ step: ConnectionStateMachine.Step<ConnectionStateMachine.Action>) {
        switch take(step) {
        case .none:
            break
        case .pullInput:
            pullInput()
        case .writeContinue:
            ResponseHead.continueBytes.withUnsafeBytes { send(head: $0, body: nil) }
        case let .writeProblem(status, detail):
            writeProblem(status: status, detail: detail)
        case .closeLingering:
            SocketIO.shutdownOutput(fd)
            resumeReading()
        case .close:
            closeNow()
        }
    }

    // MARK: - Input

    /// Called by the loop when `fd` is readable (or hung up) and reading is wanted.
    func readable() {
        guard !closed else { return }
        eventTime = Self.now()
        defer { eventTime = 0 }
        let buffer = owner.readBuffer
        switch SocketIO.read(fd, into: buffer) {
        case let .bytes(n):
            // After the final response, input is only read to see the peer's EOF. While the
            // responder works, pipelined bytes are buffered for later.
            guard !machine.discardsInput else { return }
            parser.append(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            if machine.canPullInput {
                pullInput()
            } else if parser.bufferedByteCount >= Self.readHighWater {
                suspendReading()
            }
        case .endOfInput:
            suspendReading() // EOF stays readable forever
            execute(machine.peerClosed(now: clock()))
        case .wouldBlock:
            break
        case .failed:
            execute(machine.ioFailed())
        }
    }

    /// Runs the parser while the state machine wants requests. Re-entrant calls (a response
    /// flushed synchronously inside the loop asks for more input) fall through to the loop.
    private func pullInput() {
        guard !inPullLoop else { return }
        inPullLoop = true
        defer { inPullLoop = false }
        while machine.canPullInput {
            switch parser.next() {
            case .needMore:
                if !machine.inputClosed { resumeReading() }
                releaseIdleParserMemory()
                execute(machine.needMore(phase: parser.phase, now: clock()))
                noteWaiting()
                return
            case .expectContinue:
                execute(machine.expectContinue(now: clock()))
            case let .request(request, keepAlive):
                let now = clock()
                switch take(machine.requestReceived(keepAlive: keepAlive, now: now)) {
                case .respond: respond(to: request, now: now)
                case .none: break
                }
            case let .error(error):
                execute(machine.parseError(status: error.status, detail: error.detail, now: clock()))
            }
        }
    }

    /// An idle keep-alive connection should cost next to nothing, but the parser's emptied
    /// buffer keeps its capacity: a parser with nothing buffered whose buffer grew past
    /// `keptParserCapacity` is replaced by a fresh one (no state is lost between requests;
    /// the next read allocates what it needs). A buffer that small is kept: replacing it after
    /// every request cost a parser's teardown and set-up plus a `malloc`/`free` pair per
    /// request (~5% of a cached hit's instructions) to save less than 300 bytes.
    private func releaseIdleParserMemory() {
        if parser.bufferedByteCount == 0 && parser.phase == .idle && parser.buffer.capacity > Self.keptParserCapacity {
            parser = RequestParser(limits: core.parserLimits)
        }
    }

    /// Parser buffer capacity an idle connection may keep (a typical request head fits).
    static let keptParserCapacity = 256

    private func suspendReading() {
        watch(SocketInterest(read: false, write: interest.write))
    }

    private func resumeReading() {
        watch(SocketInterest(read: true, write: interest.write))
    }

    // MARK: - Responding

    private func respond(to request: HTTPRequest, now: UInt64) {
        var request = request
        request.receivedAt = now
        request.requestIDValue = RequestID.resolve(request.headers["X-Request-ID"], source: owner.requestIDs)
        current = CurrentRequest(method: request.method, path: request.path, version: request.version,
                                 isHead: request.isHead, requestID: request.requestIDValue, startedAt: now,
                                 forwardedFor: core.configuration.trustForwardedHeaders ? ForwardedFor.clientAddress(request.headers) : nil,
                                 incomingTrace: RequestTrace.incoming(request.headers))
        switch core.responder(request) {
        case let .ready(response):
            deliver(response)
        case let .pending(work):
            let trace = RequestTrace.begin(current.incomingTrace, headers: request.headers)
            current.trace = trace
            Task { [requestID = request.requestID] in
                let response = await RequestContext.$requestID.withValue(requestID) {
                    await TraceContext.$current.withValue(trace) { await work() }
                }
                self.owner.loop.execute { self.deliver(response) }
            }
        }
    }

    private func deliver(_ response: HTTPResponse) {
        switch take(machine.responseReady(now: clock())) {
        case let .writeResponse(close): write(response, close: close)
        case .none: break
        }
    }

    private func writeProblem(status: HTTPStatus, detail: String) {
        current = CurrentRequest(requestID: .generated(owner.requestIDs.next()), startedAt: clock())
        write(Problem(status: status, detail: detail).response, close: true)
    }

    private func write(_ response: HTTPResponse, close: Bool) {
        let date = owner.date.current()
        let serverName = core.configuration.serverName
        var response = response
        var scratch = owner.headScratch(atLeast: ResponseHead.capacity(
            response, requestID: current.requestID, date: date, serverName: serverName))
        var (framing, headCount, safe) = ResponseHead.write(
            response, version: current.version, isHead: current.isHead, close: close,
            requestID: current.requestID, date: date, serverName: serverName, into: scratch)
        if !safe {
            // Never the header: a 500 problem instead, and the field's name in the log.
            let name = ResponseHeaderGuard.firstUnsafeField(response.headers).map { ResponseHeaderGuard.describe(response.headers.fields[$0]) }
            core.log("request \(current.requestID): response header \(name ?? "?") holds a control character "
                + "or is not a token; answering 500 instead of writing it")
            response = Problem(status: .internalServerError,
                               detail: "The response could not be sent safely. Request id \(current.requestID).").response
            scratch = owner.headScratch(atLeast: ResponseHead.capacity(
                response, requestID: current.requestID, date: date, serverName: serverName))
            (framing, headCount, safe) = ResponseHead.write(
                response, version: current.version, isHead: current.isHead, close: close,
                requestID: current.requestID, date: date, serverName: serverName, into: scratch)
        }
        if core.accessLog != nil {
            pendingLog = (response.status.code, framing.sendsBody ? response.body.count : 0)
        }
        send(head: UnsafeRawBufferPointer(rebasing: scratch[..<headCount]),
             body: framing.sendsBody && !response.body.isEmpty ? response.body : nil)
    }

    // MARK: - Output

    /// Writes head and body in one `sendmsg` (gathered, MSG_NOSIGNAL); whatever the kernel
    /// does not take is kept and flushed when the socket is writable. `head` may point into the
    /// loop's scratch: it is not touched after this returns or calls out.
    private func send(head: UnsafeRawBufferPointer, body: [UInt8]?) {
        guard !closed else { return }
        let total = head.count + (body?.count ?? 0)
        let written: Int
        if let body {
            written = body.withUnsafeBytes { bodyBytes in SocketIO.send(fd, head, bodyBytes) }
        } else {
            written = SocketIO.send(fd, head, UnsafeRawBufferPointer(start: nil, count: 0))
        }
        if written == total {
            finishedWriting()
            return
        }
        if written < 0 {
            execute(machine.ioFailed())
            return
        }
        pendingHead = written < head.count ? Array(head[written...]) : []
        pendingHeadOffset = 0
        pendingBody = body ?? []
        pendingBodyOffset = max(0, written - head.count)
        waitForWritable()
        execute(machine.writeBlocked(now: clock()))
    }

    /// Called by the loop when `fd` is writable (or failed) while output is pending.
    func writable() {
        guard !closed else { return }
        let before = pendingHead.count - pendingHeadOffset + pendingBody.count - pendingBodyOffset
        let written = pendingHead.withUnsafeBytes { headBytes in
            pendingBody.withUnsafeBytes { bodyBytes in
                SocketIO.send(fd, UnsafeRawBufferPointer(rebasing: headBytes[pendingHeadOffset...]),
                            UnsafeRawBufferPointer(rebasing: bodyBytes[pendingBodyOffset...]))
            }
        }
        if written < 0 {
            execute(machine.ioFailed())
            return
        }
        let fromHead = min(written, pendingHead.count - pendingHeadOffset)
        pendingHeadOffset += fromHead
        pendingBodyOffset += written - fromHead
        if written == before {
            pendingHead = []
            pendingBody = []
            pendingHeadOffset = 0
            pendingBodyOffset = 0
            watch(SocketInterest(read: interest.read, write: false))
            finishedWriting()
        } else if written > 0 {
            execute(machine.writeProgressed(now: clock()))
        }
    }

    private func finishedWriting() {
        if let (status, bytes) = pendingLog, let accessLog = core.accessLog {
            pendingLog = nil
            accessLog(AccessLogEntry(method: current.method, path: current.path, status: status, bytes: bytes,
                                     durationSeconds: Double(Self.now() &- current.startedAt) / 1e9,
                                     requestID: current.requestID.description, remoteAddress: current.forwardedFor ?? remoteAddress,
                                     trace: current.resolvedTrace()))
            if let flush = core.accessLogFlush { owner.scheduleLogFlush(flush) }
        }
        if current.startedAt != 0 { current = CurrentRequest() } // an idle connection holds no strings
        execute(machine.writeFinished(now: clock()))
    }

    private func waitForWritable() {
        watch(SocketInterest(read: interest.read, write: true))
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// The time for the state machine: the reading taken when the loop event being handled
    /// began, else a fresh one. One event's steps (a request parsed, answered from the cache,
    /// written, the parser asked for more) take microseconds and the machine's deadlines are
    /// whole seconds, so they share one reading, as event loops such as libuv's do, instead of
    /// reading the clock at each step. Answers that come back from a task read it afresh.
    @inline(__always)
    private func clock() -> UInt64 { eventTime != 0 ? eventTime : Self.now() }
}
