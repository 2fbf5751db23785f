import Base
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

    /// Everything about the connection that changes (what the stored `var`s of a class would
    /// hold), kept in memory the connection allocates in `init` and frees in `deinit`.
    ///
    /// Why: each access to a class's stored `var` is checked for exclusivity at run time (a
    /// `swift_beginAccess`/`swift_endAccess` pair with a thread-local lookup), and a cached hit
    /// made about fifteen such accesses here, some 1,000 instructions. The checks catch
    /// overlapping accesses from re-entrant code; every access here happens on the owner loop's
    /// thread (the `@unchecked Sendable` promise) and none spans a call back into the connection
    /// (each is one state-machine step, one parser call or one assignment), so memory reached
    /// through a pointer, which the run time does not track, gives up nothing.
    private struct State {
        var machine: ConnectionStateMachine
        var parser: RequestParser

        /// The connection's one timer on its loop (-1 before `start` and after the close).
        var timer = -1
        /// What the loop watches `fd` for.
        var interest = SocketInterest.reading
        /// The descriptor was handed back (unregistered, its close queued): no I/O on `fd` from
        /// here on. Set exactly when the state machine reaches `.closed` (its `.close` action is
        /// returned once), so wherever the machine is asked first (`canPullInput`, `reclaimable`)
        /// it needs no second check.
        var closed = false
        /// Where this connection sits in its loop's reclaimable list, or -1 while unlisted.
        /// Listed (or moved to the tail) each time it begins to wait for a request; left listed
        /// while busy — the reclaim path drops busy entries (see `ReclaimableConnections`).
        var reclaimHandle: ReclaimableConnections.Handle = -1
        /// `machine.requestCount` when last listed or moved: the entry is current while it matches.
        var listedAfterRequests = 0

        // Output that the kernel has not taken yet. The head remainder is a private copy (the
        // head itself is serialized into the loop's shared buffer); the body is the response's
        // own copy-on-write storage, never copied.
        var pendingHead: [UInt8] = []
        var pendingHeadOffset = 0
        var pendingBody: [UInt8] = []
        var pendingBodyOffset = 0

        /// The request being answered, for the response head.
        var current = CurrentRequest()
        /// The request being answered, for the access line and the trace (default unless
        /// `currentHoldsStorage`).
        var details = RequestDetails()
        /// `current` or `details` may hold heap storage (a client's id, text kept for the log, a
        /// forwarded address, a trace): kept as a flag so the check reads neither.
        var currentHoldsStorage = false
        /// Status and body size of the response being flushed; logged once it is fully written.
        var pendingLog: (status: Int, bytes: Int)?
        var inPullLoop = false
        /// When the loop event being handled began (0 between events): see `clock()`.
        var eventTime: UInt64 = 0

        init(machine: ConnectionStateMachine, parser: RequestParser) {
            self.machine = machine
            self.parser = parser
        }
    }

    private let stateStorage: UnsafeMutablePointer<State>
    @inline(__always)
    private var state: State {
        _read { yield stateStorage.pointee }
        _modify { yield &stateStorage.pointee }
    }

    /// What the response head needs of the request being answered: a few words, written for
    /// every request.
    private struct CurrentRequest {
        var version = HTTPVersion.http1_1
        var isHead = false
        var requestID: RequestID = ""
        var startedAt: UInt64 = 0
    }

    /// What only the access line and the trace need of the request being answered: written
    /// only when something will read it (an access log, a trusted `X-Forwarded-For`, a
    /// `traceparent`, a handler answering asynchronously), so a cached hit without them
    /// neither writes nor destroys it. Its defaults are what an access line says without it.
    private struct RequestDetails {
        var method = "-"
        var path = "-"
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
        stateStorage = UnsafeMutablePointer<State>.allocate(capacity: 1)
        stateStorage.initialize(to: State(machine: ConnectionStateMachine(timeouts: core.timeouts, now: now),
                                          parser: RequestParser(limits: core.parserLimits)))
    }

    deinit {
        stateStorage.deinitialize(count: 1)
        stateStorage.deallocate()
    }

    // MARK: - Lifecycle (all on owner.loop)

    func start() {
        // Shutdown may have reached a connection whose start was still queued: it is closed
        // (and its descriptor with it), so there is nothing to watch.
        guard !state.closed else { return }
        // `unowned`, not `weak`: a weak reference gives the object a side table, and every retain
        // and release of a connection (the loop retains it for each event) then takes the slow
        // path, ~250 instructions per cached hit. The timer cannot outlive the connection:
        // `closeNow` removes it, and the server's registry holds the connection until after that.
        state.timer = owner.loop.addTimer { [unowned self] in
            self.execute(self.state.machine.timerFired(now: self.clock()))
        }
        if let failure = owner.loop.sockets.register(self, fd: fd, interest: state.interest) {
            pollingFailed(failure)
            return
        }

        let now = clock()
        execute(state.machine.start(now: now))
        if isRejected {
            execute(state.machine.parseError(status: .serviceUnavailable,
                                       detail: "The server is at its connection limit; retry shortly.", now: now))
        } else if core.isDraining {
            execute(state.machine.shutdownRequested(now: now))
        }
        noteWaiting()
    }

    func shutdownRequested() {
        execute(state.machine.shutdownRequested(now: clock()))
    }

    func forceClose() {
        execute(state.machine.forceClose())
    }

    var isClosed: Bool { state.closed }

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
        let served = state.machine.requestCount
        if state.machine.reclaimable != nil, state.interest.read { readable() }
        if state.closed { return .closedByPeer }
        guard let reclaimable = state.machine.reclaimable else {
            unlist()
            return .busy
        }
        guard state.machine.requestCount == served, served == state.listedAfterRequests else {
            noteWaiting() // it served a request just now (the read above) and waits again
            return .requeued
        }
        execute(state.machine.reclaimRequested(now: clock()))
        return .reclaimed(reclaimable)
    }

    /// Keeps this connection's entry in its loop's reclaimable list current when it waits for
    /// a request: called where waiting can begin (start, and whenever the parser reports
    /// nothing buffered). Lists it the first time, moves it to the tail after each request
    /// it served, and does nothing while the entry is current.
    @inline(__always)
    private func noteWaiting() {
        guard state.reclaimHandle < 0 || state.machine.requestCount != state.listedAfterRequests,
              let since = state.machine.waitingSince else { return }
        state.listedAfterRequests = state.machine.requestCount
        if state.reclaimHandle < 0 {
            state.reclaimHandle = owner.reclaimables.list(self, since: since)
        } else {
            owner.reclaimables.waitsAgain(state.reclaimHandle, since: since)
        }
    }

    private func unlist() {
        guard state.reclaimHandle >= 0 else { return }
        owner.reclaimables.unlist(state.reclaimHandle)
        state.reclaimHandle = -1
    }

    /// True when the state machine would let this connection be reclaimed now (tests).
    var isReclaimable: Bool { state.machine.reclaimable != nil }

    private func closeNow() {
        state.closed = true
        unlist() // before the descriptor goes, and long before the registry lets go of us
        if state.timer >= 0 { owner.loop.removeTimer(state.timer) }
        state.timer = -1
        let failure = owner.loop.sockets.remove(fd: fd)
        // After the batch, not now: the caller is still running inside the connection, and
        // events for the descriptor may still be in the batch being delivered.
        owner.loop.afterBatch { [self] in
            SocketIO.close(fd)
            state.pendingBody = []
            core.connectionClosed(self)
        }
        if let failure { report(failure, then: "closing the descriptor drops the watch anyway") }
    }

    private func watch(_ wanted: SocketInterest) {
        guard wanted != state.interest, !state.closed else { return }
        if let failure = owner.loop.sockets.update(fd: fd, interest: wanted) {
            pollingFailed(failure)
            return
        }
        state.interest = wanted
    }

    /// epoll refused to watch the socket (or to change what it is watched for): the
    /// connection can no longer learn when it may read or write, so it closes at once,
    /// like a failed read or write, and the failure is logged.
    private func pollingFailed(_ failure: SocketPollingFailure) {
        report(failure, then: "closing the connection")
        execute(state.machine.ioFailed())
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
            owner.loop.arm(state.timer, at: deadline)
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
        case let .writeProblem(problem):
            writeProblem(status: problem.status, detail: problem.detail)
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
        guard !state.closed else { return }
        state.eventTime = Self.now()
        defer { state.eventTime = 0 }
        let buffer = owner.readBuffer
        switch SocketIO.read(fd, into: buffer) {
        case let .bytes(n):
            // After the final response, input is only read to see the peer's EOF. While the
            // responder works, pipelined bytes are buffered for later.
            guard !state.machine.discardsInput else { return }
            state.parser.append(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            if state.machine.canPullInput {
                pullInput()
            } else if state.parser.bufferedByteCount >= Self.readHighWater {
                suspendReading()
            }
        case .endOfInput:
            suspendReading() // EOF stays readable forever
            execute(state.machine.peerClosed(now: clock()))
        case .wouldBlock:
            break
        case .failed:
            execute(state.machine.ioFailed())
        }
    }

    /// Runs the parser while the state machine wants requests. Re-entrant calls (a response
    /// flushed synchronously inside the loop asks for more input) fall through to the loop.
    private func pullInput() {
        guard !state.inPullLoop else { return }
        state.inPullLoop = true
        defer { state.inPullLoop = false }
        while state.machine.canPullInput {
            switch state.parser.next() {
            case .needMore:
                if !state.machine.inputClosed { resumeReading() }
                releaseIdleParserMemory()
                execute(state.machine.needMore(phase: state.parser.phase, now: clock()))
                noteWaiting()
                return
            case .expectContinue:
                execute(state.machine.expectContinue(now: clock()))
            case let .request(request, keepAlive):
                let now = clock()
                switch take(state.machine.requestReceived(keepAlive: keepAlive, now: now)) {
                case .respond: respond(to: request, now: now)
                case .none: break
                }
            case let .error(error):
                execute(state.machine.parseError(status: error.status, detail: error.detail, now: clock()))
            }
        }
    }

    /// An idle keep-alive connection should cost next to nothing, but the parser's emptied
    /// buffer (and its room for field spans) keeps its capacity: a parser with nothing buffered
    /// that grew past what a typical request needs (`holdsSpareMemory`) is replaced by a fresh
    /// one (no state is lost between requests; the next read allocates what it needs). A small
    /// one is kept: replacing it after every request cost a parser's teardown and set-up plus a
    /// `malloc`/`free` pair per request (~5% of a cached hit's instructions) to save less than
    /// 300 bytes.
    private func releaseIdleParserMemory() {
        if state.parser.bufferedByteCount == 0 && state.parser.phase == .idle && state.parser.holdsSpareMemory {
            state.parser = RequestParser(limits: core.parserLimits)
        }
    }

    private func suspendReading() {
        watch(SocketInterest(read: false, write: state.interest.write))
    }

    private func resumeReading() {
        watch(SocketInterest(read: true, write: state.interest.write))
    }

    // MARK: - Responding

    /// Takes the request over (`consuming`): it is completed here (receive time, id) and
    /// handed on, with no copy of it made and destroyed on the way.
    private func respond(to request: consuming HTTPRequest, now: UInt64) {
        request.receivedAt = now
        let sent = request.serverReadFields
        request.requestIDValue = RequestID.resolve(sent.contains(.requestID) ? request.headers["X-Request-ID"] : nil,
                                                   source: owner.requestIDs)
        state.current = CurrentRequest(version: request.version, isHead: request.isHead,
                                       requestID: request.requestIDValue, startedAt: now)
        // Method and path are kept for the access line only: without one, nothing reads them.
        let logged = core.accessLog != nil
        let forwardedFor = core.configuration.trustForwardedHeaders ? ForwardedFor.clientAddress(request.headers) : nil
        let incomingTrace = sent.contains(.traceparent) ? RequestTrace.incoming(request.headers) : nil
        if logged || forwardedFor != nil || incomingTrace != nil {
            state.details = RequestDetails(method: logged ? request.method : "-", path: logged ? request.path : "-",
                                           forwardedFor: forwardedFor, incomingTrace: incomingTrace)
            state.currentHoldsStorage = true
        } else if request.requestIDValue.isText {
            state.currentHoldsStorage = true
        }
        let answer = core.responder(request)
        // Consumed: the ready response moves into `deliver` (no copy made and the original destroyed).
        switch consume answer {
        case let .ready(response):
            deliver(response)
        case let .pending(work):
            let trace = RequestTrace.begin(state.details.incomingTrace, headers: request.headers)
            state.details.trace = trace
            state.currentHoldsStorage = true
            Task { [requestID = request.requestID] in
                let response = await RequestContext.$requestID.withValue(requestID) {
                    await TraceContext.$current.withValue(trace) { await work() }
                }
                self.owner.loop.execute { self.deliver(response) }
            }
        }
    }

    private func deliver(_ response: consuming HTTPResponse) {
        let now = clock()
        // Shutdown marks the server draining first (readiness answers 503 from then on) and
        // tells each connection on its own loop after the listeners stop; a response finished
        // in between must already say `Connection: close`. Telling the machine twice is a no-op.
        // A loop evening out its connections (`LoopGovernor`) closes this one the same way: one
        // complete response with `Connection: close`, then the client reconnects elsewhere.
        if core.isDraining || owner.shedsConnection() { execute(state.machine.shutdownRequested(now: now)) }
        switch take(state.machine.responseReady(now: now)) {
        case let .writeResponse(close): write(response, close: close)
        case .none: break
        }
    }

    /// Lets go of what the last request left (its strings, its trace).
    private func forgetCurrentRequest() {
        state.current = CurrentRequest()
        state.details = RequestDetails()
        state.currentHoldsStorage = false
    }

    private func writeProblem(status: HTTPStatus, detail: String) {
        if state.currentHoldsStorage { forgetCurrentRequest() }
        state.current = CurrentRequest(requestID: .generated(owner.requestIDs.next()), startedAt: clock())
        write(Problem(status: status, detail: detail).response, close: true)
    }

    private func write(_ response: consuming HTTPResponse, close: Bool) {
        let serverName = core.configuration.serverName
        let (date, okPrefix) = owner.currentDate(serverName: serverName)
        var scratch = owner.headScratch(atLeast: ResponseHead.capacity(
            response, requestID: state.current.requestID, date: date, serverName: serverName))
        var (framing, headCount, safe) = ResponseHead.write(
            response, version: state.current.version, isHead: state.current.isHead, close: close,
            requestID: state.current.requestID, date: date, serverName: serverName, okPrefix: okPrefix, into: scratch)
        if !safe {
            // Never the header: a 500 problem instead, and the field's name in the log.
            let name = ResponseHeaderGuard.firstUnsafeField(response.headers).map { ResponseHeaderGuard.describe(response.headers.fields[$0]) }
            core.log("request \(state.current.requestID): response header \(name ?? "?") holds a control character "
                + "or is not a token; answering 500 instead of writing it")
            response = Problem(status: .internalServerError,
                               detail: "The response could not be sent safely. Request id \(state.current.requestID).").response
            scratch = owner.headScratch(atLeast: ResponseHead.capacity(
                response, requestID: state.current.requestID, date: date, serverName: serverName))
            (framing, headCount, safe) = ResponseHead.write(
                response, version: state.current.version, isHead: state.current.isHead, close: close,
                requestID: state.current.requestID, date: date, serverName: serverName, okPrefix: okPrefix, into: scratch)
        }
        if core.accessLog != nil {
            state.pendingLog = (response.status.code, framing.sendsBody ? response.body.count : 0)
        }
        send(head: UnsafeRawBufferPointer(rebasing: scratch[..<headCount]),
             body: framing.sendsBody && !response.body.isEmpty ? response.body : nil)
    }

    // MARK: - Output

    /// Writes head and body in one `sendmsg` (gathered, MSG_NOSIGNAL); whatever the kernel
    /// does not take is kept and flushed when the socket is writable. `head` may point into the
    /// loop's scratch: it is not touched after this returns or calls out.
    private func send(head: UnsafeRawBufferPointer, body: [UInt8]?) {
        guard !state.closed else { return }
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
            execute(state.machine.ioFailed())
            return
        }
        state.pendingHead = written < head.count ? Array(head[written...]) : []
        state.pendingHeadOffset = 0
        state.pendingBody = body ?? []
        state.pendingBodyOffset = max(0, written - head.count)
        waitForWritable()
        execute(state.machine.writeBlocked(now: clock()))
    }

    /// Called by the loop when `fd` is writable (or failed) while output is pending.
    func writable() {
        guard !state.closed else { return }
        let before = state.pendingHead.count - state.pendingHeadOffset + state.pendingBody.count - state.pendingBodyOffset
        let written = state.pendingHead.withUnsafeBytes { headBytes in
            state.pendingBody.withUnsafeBytes { bodyBytes in
                SocketIO.send(fd, UnsafeRawBufferPointer(rebasing: headBytes[state.pendingHeadOffset...]),
                            UnsafeRawBufferPointer(rebasing: bodyBytes[state.pendingBodyOffset...]))
            }
        }
        if written < 0 {
            execute(state.machine.ioFailed())
            return
        }
        let fromHead = min(written, state.pendingHead.count - state.pendingHeadOffset)
        state.pendingHeadOffset += fromHead
        state.pendingBodyOffset += written - fromHead
        if written == before {
            state.pendingHead = []
            state.pendingBody = []
            state.pendingHeadOffset = 0
            state.pendingBodyOffset = 0
            watch(SocketInterest(read: state.interest.read, write: false))
            finishedWriting()
        } else if written > 0 {
            execute(state.machine.writeProgressed(now: clock()))
        }
    }

    private func finishedWriting() {
        if let (status, bytes) = state.pendingLog, let accessLog = core.accessLog {
            state.pendingLog = nil
            accessLog(AccessLogEntry(method: state.details.method, path: state.details.path, status: status, bytes: bytes,
                                     durationSeconds: Double(Self.now() &- state.current.startedAt) / 1e9,
                                     requestID: state.current.requestID.description, remoteAddress: state.details.forwardedFor ?? remoteAddress,
                                     trace: state.details.resolvedTrace()))
            state.currentHoldsStorage = true // the trace made just now
            if let flush = core.accessLogFlush { owner.scheduleLogFlush(flush) }
        }
        // An idle connection holds no strings; when the request left none (no access log, a
        // generated id, no trace), there is nothing to let go, and the next request overwrites it.
        if state.currentHoldsStorage { forgetCurrentRequest() }
        execute(state.machine.writeFinished(now: clock()))
    }

    private func waitForWritable() {
        watch(SocketInterest(read: state.interest.read, write: true))
    }

    static func now() -> UInt64 { SystemFacts.monotonicNanoseconds() }

    /// The time for the state machine: the reading taken when the loop event being handled
    /// began, else a fresh one. One event's steps (a request parsed, answered from the cache,
    /// written, the parser asked for more) take microseconds and the machine's deadlines are
    /// whole seconds, so they share one reading, as event loops such as libuv's do, instead of
    /// reading the clock at each step. Answers that come back from a task read it afresh.
    @inline(__always)
    private func clock() -> UInt64 { state.eventTime != 0 ? state.eventTime : Self.now() }
}
