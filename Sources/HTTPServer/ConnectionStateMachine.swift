/// The protocol logic of one HTTP/1.1 connection, with no sockets and no clock of its own.
///
/// The socket-driven `Connection` feeds it events (a request was parsed, a response is
/// ready, a write finished or blocked, a timer fired, the peer closed, shutdown began)
/// and executes the `Step` each event returns. Time is passed in as monotonic nanoseconds,
/// so every rule below — keep-alive, strict ordering, close rules and every deadline — is
/// unit-tested with a fake clock.
///
/// Ordering (RFC 9112 §9.3.2): one request is handed to the responder at a time, and the
/// next buffered request is parsed only after the previous response has been flushed to
/// the socket. Pipelined requests are therefore answered strictly in order, and a client
/// can never make more than one request's worth of work per connection.
///
/// Deadlines (one per connection, re-armed lazily: the timer is moved earlier when needed
/// and otherwise left to fire and re-check, so a busy keep-alive connection does not
/// reschedule a timer for every request):
/// - fresh connection with no byte yet: `headerTimeout`, then a silent close;
/// - between keep-alive requests: `idleTimeout`, then a silent close;
/// - first byte of a request until its head is complete: `headerTimeout`, then 408;
/// - head complete until the body is complete: `bodyTimeout`, then 408;
/// - output pending with no write progress: `writeTimeout`, then an abortive close;
/// - lingering after the final response: `lingerTimeout`, then close.
/// While the responder works there is no deadline: handlers bound their own upstream work,
/// and shutdown's grace period bounds everything.
///
/// Reclaiming (at `maxConnections`, see `ConnectionReclaimer`): a connection that waits for a
/// request with nothing of one received — idle between keep-alive requests, or silent since
/// it was accepted — is `reclaimable`, and `reclaimRequested` closes it the way its idle or
/// header deadline would. Anything else (a request partly received, in the responder's
/// hands, its response being written, a final response lingering) is never reclaimable.
struct ConnectionStateMachine: Sendable {
    /// Monotonic time in nanoseconds (e.g. `DispatchTime.now().uptimeNanoseconds`).
    typealias Nanos = UInt64

    struct Timeouts: Sendable, Equatable {
        var header: Nanos
        var idle: Nanos
        var body: Nanos
        var write: Nanos
        var linger: Nanos

        init(header: Nanos, idle: Nanos, body: Nanos, write: Nanos, linger: Nanos) {
            self.header = header
            self.idle = idle
            self.body = body
            self.write = write
            self.linger = linger
        }

        init(_ configuration: HTTPServerConfiguration) {
            func ns(_ seconds: Double) -> Nanos { Nanos(max(0.001, seconds) * 1e9) }
            self.init(header: ns(configuration.headerTimeoutSeconds),
                      idle: ns(configuration.idleTimeoutSeconds),
                      body: ns(configuration.bodyTimeoutSeconds),
                      write: ns(configuration.writeTimeoutSeconds),
                      linger: ns(configuration.lingerTimeoutSeconds))
        }
    }

    /// What the connection must do next.
    enum Action: Equatable, Sendable {
        case none
        /// Hand the request just parsed to the responder.
        case respond
        /// Ask the parser for the next buffered request (a response was flushed).
        case pullInput
        /// Serialize and write the response; `close` says `Connection: close` and the
        /// connection closes once it is flushed.
        case writeResponse(close: Bool)
        /// Send `HTTP/1.1 100 Continue` (RFC 9110 §10.1.1).
        case writeContinue
        /// Write a problem+json response with `Connection: close`, then close.
        case writeProblem(status: HTTPStatus, detail: String)
        /// Shut down our sending side and discard input until EOF or the linger deadline, so
        /// the peer reads the final response instead of a reset (RFC 9112 §9.6).
        case closeLingering
        /// Cancel the sources and close the socket now.
        case close
    }

    enum TimerChange: Equatable, Sendable {
        case unchanged
        /// (Re)schedule the connection's single timer to fire at this instant.
        case arm(Nanos)
    }

    /// The result of one event: apply `timer`, then execute `action`.
    struct Step: Equatable, Sendable {
        var action: Action
        var timer: TimerChange
    }

    /// The phase of the request being read, as the parser reports it.
    enum ReadPhase: Sendable, Equatable {
        case idle, head, body
    }

    /// Why a connection may be closed to make room for a newcomer at the connection limit.
    enum Reclaimable: Sendable, Equatable {
        /// Between keep-alive requests: every request answered and flushed, no byte of the next.
        case idle
        /// Accepted, and no request begun since (at most the empty lines RFC 9112 §2.2 lets a
        /// server ignore).
        case silent
    }

    enum Activity: Sendable, Equatable {
        /// Reading requests (or waiting for the next one).
        case reading
        /// The responder has the current request.
        case responding
        /// The final response is flushed; waiting for the peer's EOF.
        case lingering
        case closed
    }

    private(set) var activity: Activity = .reading
    /// Bytes queued on the socket that the kernel has not taken yet.
    private(set) var outputPending = false
    /// The response queued last said `Connection: close`.
    private(set) var closeWhenFlushed = false
    private(set) var inputClosed = false
    private(set) var draining = false
    private(set) var phase: ReadPhase = .idle
    /// Requests handed to the responder so far.
    private(set) var requestCount = 0
    private(set) var armedDeadline: Nanos?

    private let timeouts: Timeouts
    private var phaseSince: Nanos
    private var lastWriteProgress: Nanos = 0
    private var lingerDeadline: Nanos = 0
    private var currentKeepAlive = true
    /// The parser's last word was "nothing buffered, waiting for a request" (true from
    /// accept until the first byte): cleared by a partial or complete request and by a
    /// response being queued, set again only when the parser reports `needMore(.idle)`.
    private var awaitingRequest = true

    /// A connection accepted at `now`: its first request must start within `headerTimeout`.
    init(timeouts: Timeouts, now: Nanos) {
        self.timeouts = timeouts
        self.phaseSince = now
    }

    /// The first step of a connection: arms its first deadline.
    mutating func start(now: Nanos) -> Step {
        step(.none)
    }

    /// True when the connection wants the parser's next event.
    var canPullInput: Bool {
        activity == .reading && !outputPending && !closeWhenFlushed
    }

    /// Whether the connection could be closed now without cutting anything: nil unless it
    /// waits for a request with nothing of one received, no output pending, no close decided
    /// (final response, shutdown, peer's EOF).
    var reclaimable: Reclaimable? {
        guard awaitingRequest, activity == .reading, phase == .idle, !outputPending, !closeWhenFlushed,
              !draining, !inputClosed else { return nil }
        return requestCount == 0 ? .silent : .idle
    }

    /// Since when the connection has waited for a request (its last response was flushed,
    /// or it was accepted): meaningful while `reclaimable` is non-nil.
    var waitingSince: Nanos { phaseSince }

    /// The instant the current deadline expires, or nil while the responder works.
    var deadline: Nanos? {
        switch activity {
        case .closed:
            return nil
        case .responding where !outputPending:
            return nil
        case .lingering:
            return lingerDeadline
        case .reading, .responding:
            if outputPending { return lastWriteProgress &+ timeouts.write }
            switch phase {
            case .idle: return phaseSince &+ (requestCount == 0 ? timeouts.header : timeouts.idle)
            case .head: return phaseSince &+ timeouts.header
            case .body: return phaseSince &+ timeouts.body
            }
        }
    }

    // MARK: - Input

    /// The parser consumed everything it could and is now in `phase`.
    mutating func needMore(phase newPhase: ReadPhase, now: Nanos) -> Step {
        guard activity == .reading else { return step(.none) }
        if newPhase != phase {
            phase = newPhase
            phaseSince = now
        }
        awaitingRequest = newPhase == .idle
        if inputClosed {
            // Nothing more will arrive: a partial request can never complete.
            return close()
        }
        if draining && phase == .idle && !outputPending && !closeWhenFlushed {
            return close()
        }
        return step(.none)
    }

    /// The parser produced a complete request; `keepAlive` is its RFC 9112 §9.3 verdict.
    mutating func requestReceived(keepAlive: Bool, now: Nanos) -> Step {
        guard activity == .reading, canPullInput else { return step(.none) }
        activity = .responding
        awaitingRequest = false
        currentKeepAlive = keepAlive
        requestCount += 1
        phase = .idle
        phaseSince = now
        return step(.respond)
    }

    /// The request's head asked for `100-continue` and the body is still to come.
    mutating func expectContinue(now: Nanos) -> Step {
        guard activity == .reading, !closeWhenFlushed else { return step(.none) }
        awaitingRequest = false
        if phase != .body {
            phase = .body
            phaseSince = now
        }
        return step(.writeContinue)
    }

    /// The request could not be parsed (or is refused): answer `status`, then close.
    mutating func parseError(status: HTTPStatus, detail: String, now: Nanos) -> Step {
        guard activity == .reading, !closeWhenFlushed else { return step(.none) }
        closeWhenFlushed = true
        return step(.writeProblem(status: status, detail: detail))
    }

    /// The peer sent EOF (a half-close): answer what was already received, then close.
    mutating func peerClosed(now: Nanos) -> Step {
        inputClosed = true
        switch activity {
        case .closed:
            return step(.none)
        case .lingering:
            return close()
        case .responding:
            return step(.none)
        case .reading:
            // With no output pending, every complete request was already pulled.
            if outputPending { return step(.none) }
            return close()
        }
    }

    // MARK: - Output

    /// The responder's answer to the current request is ready.
    mutating func responseReady(now: Nanos) -> Step {
        guard activity == .responding else { return step(.none) }
        activity = .reading
        awaitingRequest = false // the response is being written
        let close = !currentKeepAlive || draining
        closeWhenFlushed = close
        return step(.writeResponse(close: close))
    }

    /// The socket took part of the output and would block on the rest.
    mutating func writeBlocked(now: Nanos) -> Step {
        guard activity != .closed else { return step(.none) }
        if !outputPending {
            outputPending = true
            lastWriteProgress = now
        }
        return step(.none)
    }

    /// The socket took more bytes but not all of them.
    mutating func writeProgressed(now: Nanos) -> Step {
        lastWriteProgress = now
        return step(.none)
    }

    /// Everything queued was written.
    mutating func writeFinished(now: Nanos) -> Step {
        guard activity != .closed else { return step(.none) }
        outputPending = false
        if closeWhenFlushed {
            if inputClosed { return close() }
            activity = .lingering
            lingerDeadline = now &+ timeouts.linger
            return step(.closeLingering)
        }
        guard activity == .reading else { return step(.none) }
        if phase == .idle { phaseSince = now }
        return step(.pullInput)
    }

    /// A read or write failed for good (reset, broken pipe).
    mutating func ioFailed() -> Step {
        close()
    }

    // MARK: - Time and lifecycle

    /// The connection's timer fired (possibly early or late: it re-checks the deadline).
    mutating func timerFired(now: Nanos) -> Step {
        armedDeadline = nil
        guard let deadline, deadline <= now else { return step(.none) }
        switch activity {
        case .closed:
            return step(.none)
        case .responding where !outputPending:
            return step(.none)
        case .lingering:
            return close()
        case .reading, .responding:
            if outputPending { return close() } // stalled write: nothing more can be said
            switch phase {
            case .idle:
                return close()
            case .head:
                return parseError(status: .requestTimeout,
                                  detail: "The request header was not complete within \(seconds(timeouts.header)) seconds.",
                                  now: now)
            case .body:
                return parseError(status: .requestTimeout,
                                  detail: "The request body was not complete within \(seconds(timeouts.body)) seconds.",
                                  now: now)
            }
        }
    }

    /// Graceful shutdown began: idle connections close now, busy ones answer with
    /// `Connection: close` and close after that response.
    mutating func shutdownRequested(now: Nanos) -> Step {
        draining = true
        if activity == .reading && !outputPending && !closeWhenFlushed && phase == .idle {
            return close()
        }
        return step(.none)
    }

    /// The server is at its connection limit and picked this connection to make room: it
    /// closes, silently, exactly as its idle (or fresh-connection header) deadline would have
    /// closed it — but only while it is `reclaimable`; otherwise nothing happens.
    mutating func reclaimRequested(now: Nanos) -> Step {
        guard reclaimable != nil else { return step(.none) }
        return close()
    }

    /// Shutdown's grace period is over, or the server must drop this connection.
    mutating func forceClose() -> Step {
        close()
    }

    // MARK: - Helpers

    private mutating func close() -> Step {
        guard activity != .closed else { return Step(action: .none, timer: .unchanged) }
        activity = .closed
        outputPending = false
        return Step(action: .close, timer: .unchanged)
    }

    /// Pairs `action` with the timer change the new state needs: the timer only ever moves
    /// earlier here; a later deadline is picked up when the armed one fires.
    private mutating func step(_ action: Action) -> Step {
        guard let deadline else { return Step(action: action, timer: .unchanged) }
        if let armed = armedDeadline, armed <= deadline {
            return Step(action: action, timer: .unchanged)
        }
        armedDeadline = deadline
        return Step(action: action, timer: .arm(deadline))
    }

    private func seconds(_ ns: Nanos) -> String {
        let s = Double(ns) / 1e9
        return s == s.rounded() ? String(Int(s)) : String(s)
    }
}
