/// The protocol logic of one HTTP/1.1 connection, with no sockets and no clock of its own.
///
/// The socket-driven `Connection` feeds it events (a request was parsed, a response is
/// ready, a write finished or blocked, a timer fired, the peer closed, shutdown began)
/// and executes the `Step` each event returns. Time is passed in as monotonic nanoseconds,
/// so every rule below — keep-alive, strict ordering, close rules and every deadline — is
/// unit-tested with a fake clock.
///
/// Everything the machine knows is one value, `state` (see `State`): where the connection is
/// in its life, with exactly the data that stage needs. There are no flags beside it, so no
/// combination of them can contradict another (a lingering connection with output pending,
/// a responder working while a problem answer is queued). Every event switches over every
/// state, without a `default`: an event that means nothing in a state (a write report while
/// the responder works, a parsed request while a response is still being written, anything
/// after the close) returns `.none` and leaves the state as it was. No event traps.
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
/// and shutdown's grace period bounds everything. Nor while a write call is under way (the
/// socket has not refused anything yet): that call reports at once whether it finished or
/// blocked.
///
/// Reclaiming (at `maxConnections`, see `ServerCore+Reclaiming.swift`): a connection that waits for a
/// request with nothing of one received — idle between keep-alive requests, or silent since
/// it was accepted — is `reclaimable`, and `reclaimRequested` closes it the way its idle or
/// header deadline would. Anything else (a request partly received, in the responder's
/// hands, its response being written, a final response lingering) is never reclaimable.
struct ConnectionStateMachine: Sendable {
    /// Monotonic time in nanoseconds (e.g. `DispatchTime.now().uptimeNanoseconds`).
    typealias Nanos = UInt64

    struct Timeouts: Sendable, Equatable {
        var header, idle, body, write, linger: Nanos
    }

    // MARK: - State

    /// Where the connection is in its life. Each case carries what that stage needs and
    /// nothing else.
    enum State: Equatable, Sendable {
        /// Waiting for a request, nothing of one received, and the parser has said that
        /// nothing is buffered (at most the empty lines RFC 9112 §2.2 lets a server skip):
        /// since accept, or since the last response was flushed. Shutdown or the peer's EOF
        /// here close at once, so no `Ending` can hold. The only reclaimable state.
        case awaitingRequest(since: Nanos)
        /// A keep-alive response was just flushed at `since`; the parser has not yet said
        /// whether the next request is already buffered (pipelining).
        case responseFlushed(since: Nanos, Ending)
        /// Part of a request has arrived: its head, or (head complete) its body, since `since`.
        case receiving(RequestPart, since: Nanos, Ending)
        /// The responder has the request; `keepAlive` is the parser's RFC 9112 §9.3 verdict.
        case responding(keepAlive: Bool, Ending)
        /// `output` is being handed to the socket. `stalledSince` is nil while the write call
        /// is under way, then the instant of the last progress once the socket refused part
        /// of it (the write deadline runs from there).
        case writing(Output, stalledSince: Nanos?, Ending)
        /// The final response is flushed and our sending side shut down; input is read (and
        /// dropped) only to see the peer's EOF, at the latest until `until`.
        case lingering(until: Nanos)
        case closed
    }

    /// Which part of a request has arrived.
    enum RequestPart: Sendable, Equatable {
        case head, body
    }

    /// What is being written.
    enum Output: Sendable, Equatable {
        /// `HTTP/1.1 100 Continue` (RFC 9110 §10.1.1): afterwards the body, whose deadline runs
        /// from `bodySince`, keeps arriving.
        case interim(bodySince: Nanos)
        /// A keep-alive response: afterwards, the next request.
        case response
        /// The last thing this connection says (`Connection: close`, or a problem answer):
        /// afterwards, a lingering close.
        case final
    }

    /// What has already decided that the connection ends once the work in hand is done: it
    /// holds from whatever state it arrived in, so it is carried from state to state.
    struct Ending: OptionSet, Sendable, Hashable {
        let rawValue: UInt8
        /// Graceful shutdown began: the response in hand says `Connection: close`, and the
        /// connection closes instead of waiting for another request.
        static let draining = Ending(rawValue: 1)
        /// The peer sent EOF (a half-close): what was received is answered, then the
        /// connection closes (without lingering: there is nothing left to read).
        static let inputClosed = Ending(rawValue: 2)
    }

    // MARK: - Steps

    /// What the connection must do next, for the events that can ask for several things.
    enum Action: Equatable, Sendable {
        case none
        /// Ask the parser for the next buffered request (the output was flushed).
        case pullInput
        /// Send `HTTP/1.1 100 Continue` (RFC 9110 §10.1.1).
        case writeContinue
        /// Write a problem+json response with `Connection: close`, then close.
        case writeProblem(ProblemAnswer)
        /// Shut down our sending side and discard input until EOF or the linger deadline, so
        /// the peer reads the final response instead of a reset (RFC 9112 §9.6).
        case closeLingering
        /// Cancel the sources and close the socket now.
        case close
    }

    /// The problem a `writeProblem` action answers with, held by reference.
    ///
    /// Why a class: with two `String`s inline in its payload, `Action` (and every `Step`
    /// carrying one) was destroyed through value witnesses (the run time inspecting the enum's
    /// layout, ~600 instructions per hit for steps that carry no problem at all); with one
    /// reference as its only payload, destroying a step is a tag test and, rarely, a release.
    final class ProblemAnswer: Equatable, Sendable, CustomStringConvertible {
        let status: HTTPStatus
        let detail: String

        init(status: HTTPStatus, detail: String) {
            self.status = status
            self.detail = detail
        }

        static func == (lhs: ProblemAnswer, rhs: ProblemAnswer) -> Bool {
            lhs.status == rhs.status && lhs.detail == rhs.detail
        }

        var description: String { "\(status.code) \(detail)" }
    }

    /// What `requestReceived` asks for: the request the parser just produced is in the
    /// connection's hands, not the machine's.
    enum RequestAction: Equatable, Sendable {
        case none
        /// Hand the request just parsed to the responder.
        case respond
    }

    /// What `responseReady` asks for: the response is in the connection's hands.
    enum ResponseAction: Equatable, Sendable {
        case none
        /// Serialize and write the response; `close` says `Connection: close` and the
        /// connection closes once it is flushed.
        case writeResponse(close: Bool)
    }

    enum TimerChange: Equatable, Sendable {
        case unchanged
        /// (Re)schedule the connection's single timer to fire at this instant.
        case arm(Nanos)
    }

    /// The result of one event: apply `timer`, then execute `action`.
    struct Step<Action: Equatable & Sendable>: Equatable, Sendable {
        var action: Action
        var timer: TimerChange
    }

    /// Why a connection may be closed to make room for a newcomer at the connection limit.
    enum Reclaimable: Sendable, Equatable {
        /// Between keep-alive requests: every request answered and flushed, no byte of the next.
        case idle
        /// Accepted, and no request begun since (at most the empty lines RFC 9112 §2.2 lets a
        /// server ignore).
        case silent
    }

    private(set) var state: State
    /// Requests handed to the responder so far (a count, not a state: it tells a fresh
    /// connection from an idle keep-alive one, and the reclaim list's entries apart).
    private(set) var requestCount = 0
    /// The instant the connection's timer is set for, nil once it fired (or before the first
    /// arm): bookkeeping for the lazy re-arm, not part of the connection's state.
    private(set) var armedDeadline: Nanos?

    private let timeouts: Timeouts

    /// A connection accepted at `now`: its first request must start within `headerTimeout`.
    init(timeouts: Timeouts, now: Nanos) {
        self.timeouts = timeouts
        self.state = .awaitingRequest(since: now)
    }

    /// The first step of a connection: arms its first deadline.
    mutating func start(now: Nanos) -> Step<Action> {
        step(.none)
    }

    // MARK: - Views for the connection

    /// True when the connection wants the parser's next event.
    var canPullInput: Bool {
        switch state {
        case .awaitingRequest, .responseFlushed, .receiving: return true
        case .responding, .writing, .lingering, .closed: return false
        }
    }

    /// True once the final answer is queued: input is then read only to see the peer's EOF.
    var discardsInput: Bool {
        switch state {
        case .writing(.final, _, _), .lingering: return true
        case .awaitingRequest, .responseFlushed, .receiving, .responding, .writing, .closed: return false
        }
    }

    /// True when the peer's EOF has been seen and the connection still has something to do.
    var inputClosed: Bool {
        switch state {
        case let .responseFlushed(_, ending), let .receiving(_, _, ending), let .responding(_, ending),
             let .writing(_, _, ending):
            return ending.contains(.inputClosed)
        case .awaitingRequest, .lingering, .closed:
            return false
        }
    }

    /// Whether the connection could be closed now without cutting anything: nil unless it
    /// waits for a request with nothing of one received (`awaitingRequest`).
    var reclaimable: Reclaimable? {
        guard case .awaitingRequest = state else { return nil }
        return requestCount == 0 ? .silent : .idle
    }

    /// Since when the connection has waited for a request (its last response was flushed,
    /// or it was accepted); nil unless it is `reclaimable`.
    var waitingSince: Nanos? {
        guard case let .awaitingRequest(since) = state else { return nil }
        return since
    }

    /// The instant the current deadline expires, or nil when none runs.
    var deadline: Nanos? {
        switch state {
        case let .awaitingRequest(since), let .responseFlushed(since, _):
            return since &+ (requestCount == 0 ? timeouts.header : timeouts.idle)
        case let .receiving(.head, since, _):
            return since &+ timeouts.header
        case let .receiving(.body, since, _):
            return since &+ timeouts.body
        case .responding, .closed:
            return nil
        case let .writing(_, stalledSince, _):
            return stalledSince.map { $0 &+ timeouts.write }
        case let .lingering(until):
            return until
        }
    }

    // MARK: - Input

    /// The parser consumed everything it could and is now in `phase`.
    mutating func needMore(phase: ParserPhase, now: Nanos) -> Step<Action> {
        switch state {
        case let .awaitingRequest(since):
            return reading(phase, had: nil, since: since, [], now: now)
        case let .responseFlushed(since, ending):
            return reading(phase, had: nil, since: since, ending, now: now)
        case let .receiving(part, since, ending):
            return reading(phase, had: part, since: since, ending, now: now)
        case .responding, .writing, .lingering, .closed:
            return step(.none) // the parser is not being read
        }
    }

    /// The parser produced a complete request; `keepAlive` is its RFC 9112 §9.3 verdict.
    mutating func requestReceived(keepAlive: Bool, now: Nanos) -> Step<RequestAction> {
        switch state {
        case .awaitingRequest:
            state = .responding(keepAlive: keepAlive, [])
        case let .responseFlushed(_, ending), let .receiving(_, _, ending):
            state = .responding(keepAlive: keepAlive, ending)
        case .responding, .writing, .lingering, .closed:
            return step(.none) // one request at a time, and only while reading
        }
        requestCount += 1
        return step(.respond)
    }

    /// The request's head asked for `100-continue` and the body is still to come.
    mutating func expectContinue(now: Nanos) -> Step<Action> {
        switch state {
        case .awaitingRequest:
            state = .writing(.interim(bodySince: now), stalledSince: nil, [])
        case let .responseFlushed(_, ending):
            state = .writing(.interim(bodySince: now), stalledSince: nil, ending)
        case let .receiving(part, since, ending):
            state = .writing(.interim(bodySince: part == .body ? since : now), stalledSince: nil, ending)
        case .responding, .writing, .lingering, .closed:
            return step(.none)
        }
        return step(.writeContinue)
    }

    /// The request could not be parsed (or is refused): answer `status`, then close.
    mutating func parseError(status: HTTPStatus, detail: String, now: Nanos) -> Step<Action> {
        switch state {
        case .awaitingRequest:
            state = .writing(.final, stalledSince: nil, [])
        case let .responseFlushed(_, ending), let .receiving(_, _, ending):
            state = .writing(.final, stalledSince: nil, ending)
        case .responding, .writing, .lingering, .closed:
            return step(.none) // the parser is not being read; a final answer is said once
        }
        return step(.writeProblem(ProblemAnswer(status: status, detail: detail)))
    }

    /// The peer sent EOF (a half-close): answer what was already received, then close.
    mutating func peerClosed(now: Nanos) -> Step<Action> {
        switch state {
        case .awaitingRequest, .responseFlushed, .receiving:
            // Every complete request was already pulled: a partial one can never complete.
            return close()
        case .lingering:
            return close() // what lingering waited for
        case let .responding(keepAlive, ending):
            state = .responding(keepAlive: keepAlive, ending.union(.inputClosed))
        case let .writing(output, stalledSince, ending):
            state = .writing(output, stalledSince: stalledSince, ending.union(.inputClosed))
        case .closed:
            break
        }
        return step(.none)
    }

    // MARK: - Output

    /// The responder's answer to the current request is ready.
    mutating func responseReady(now: Nanos) -> Step<ResponseAction> {
        switch state {
        case let .responding(keepAlive, ending):
            let close = !keepAlive || ending.contains(.draining)
            state = .writing(close ? .final : .response, stalledSince: nil, ending)
            return step(.writeResponse(close: close))
        case .awaitingRequest, .responseFlushed, .receiving, .writing, .lingering, .closed:
            return step(.none) // no request is in the responder's hands
        }
    }

    /// The socket took part of the output and would block on the rest.
    mutating func writeBlocked(now: Nanos) -> Step<Action> {
        switch state {
        case let .writing(output, nil, ending):
            state = .writing(output, stalledSince: now, ending)
        case .writing, .awaitingRequest, .responseFlushed, .receiving, .responding, .lingering, .closed:
            break // already stalled (the deadline runs from the last progress), or nothing written
        }
        return step(.none)
    }

    /// The socket took more bytes but not all of them.
    mutating func writeProgressed(now: Nanos) -> Step<Action> {
        switch state {
        case let .writing(output, _, ending):
            state = .writing(output, stalledSince: now, ending)
        case .awaitingRequest, .responseFlushed, .receiving, .responding, .lingering, .closed:
            break
        }
        return step(.none)
    }

    /// Everything queued was written.
    mutating func writeFinished(now: Nanos) -> Step<Action> {
        switch state {
        case let .writing(.final, _, ending):
            if ending.contains(.inputClosed) { return close() }
            state = .lingering(until: now &+ timeouts.linger)
            return step(.closeLingering)
        case let .writing(.response, _, ending):
            state = .responseFlushed(since: now, ending)
        case let .writing(.interim(bodySince), _, ending):
            state = .receiving(.body, since: bodySince, ending)
        case .awaitingRequest, .responseFlushed, .receiving, .responding, .lingering, .closed:
            return step(.none) // nothing was being written
        }
        return step(.pullInput)
    }

    /// A read or write failed for good (reset, broken pipe), or the socket can no longer be
    /// watched.
    mutating func ioFailed() -> Step<Action> {
        close()
    }

    // MARK: - Time and lifecycle

    /// The connection's timer fired (possibly early or late: it re-checks the deadline).
    mutating func timerFired(now: Nanos) -> Step<Action> {
        armedDeadline = nil
        guard let deadline, deadline <= now else { return step(.none) }
        switch state {
        case .awaitingRequest, .responseFlushed:
            return close()
        case .receiving(.head, _, _):
            return parseError(status: .requestTimeout,
                              detail: "The request header was not complete within \(seconds(timeouts.header)) seconds.",
                              now: now)
        case .receiving(.body, _, _):
            return parseError(status: .requestTimeout,
                              detail: "The request body was not complete within \(seconds(timeouts.body)) seconds.",
                              now: now)
        case .writing:
            return close() // a stalled write: nothing more can be said
        case .lingering:
            return close()
        case .responding, .closed:
            return step(.none) // no deadline runs (unreachable past the guard)
        }
    }

    /// Graceful shutdown began: idle connections close now, busy ones answer with
    /// `Connection: close` and close after that response.
    mutating func shutdownRequested(now: Nanos) -> Step<Action> {
        switch state {
        case .awaitingRequest, .responseFlushed:
            return close()
        case let .receiving(part, since, ending):
            state = .receiving(part, since: since, ending.union(.draining))
        case let .responding(keepAlive, ending):
            state = .responding(keepAlive: keepAlive, ending.union(.draining))
        case let .writing(output, stalledSince, ending):
            state = .writing(output, stalledSince: stalledSince, ending.union(.draining))
        case .lingering, .closed:
            break // already ending
        }
        return step(.none)
    }

    /// The server is at its connection limit and picked this connection to make room: it
    /// closes, silently, exactly as its idle (or fresh-connection header) deadline would have
    /// closed it — but only while it is `reclaimable`; otherwise nothing happens.
    mutating func reclaimRequested(now: Nanos) -> Step<Action> {
        guard reclaimable != nil else { return step(.none) }
        return close()
    }

    /// Shutdown's grace period is over, or the server must drop this connection.
    mutating func forceClose() -> Step<Action> {
        close()
    }

    // MARK: - Helpers

    /// The parser reported `phase` while the connection was reading; `had` is the part of a
    /// request received before (nil: none), `since` when that began.
    private mutating func reading(_ phase: ParserPhase, had: RequestPart?, since: Nanos, _ ending: Ending,
                                  now: Nanos) -> Step<Action> {
        // Nothing more will arrive: a partial request can never complete.
        if ending.contains(.inputClosed) { return close() }
        switch phase {
        case .idle:
            if ending.contains(.draining) { return close() }
            state = .awaitingRequest(since: had == nil ? since : now)
        case .head:
            state = .receiving(.head, since: had == .head ? since : now, ending)
        case .body:
            state = .receiving(.body, since: had == .body ? since : now, ending)
        }
        return step(.none)
    }

    private mutating func close() -> Step<Action> {
        if case .closed = state { return Step(action: .none, timer: .unchanged) }
        state = .closed
        return Step(action: .close, timer: .unchanged)
    }

    /// Pairs `action` with the timer change the new state needs: the timer only ever moves
    /// earlier here; a later deadline is picked up when the armed one fires.
    private mutating func step<A>(_ action: A) -> Step<A> {
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

extension ConnectionStateMachine.Timeouts {
    /// The server's deadlines in nanoseconds, each at least a millisecond.
    init(_ configuration: HTTPServerConfiguration) {
        func ns(_ seconds: Double) -> ConnectionStateMachine.Nanos { ConnectionStateMachine.Nanos(max(0.001, seconds) * 1e9) }
        self.init(header: ns(configuration.headerTimeoutSeconds),
                  idle: ns(configuration.idleTimeoutSeconds),
                  body: ns(configuration.bodyTimeoutSeconds),
                  write: ns(configuration.writeTimeoutSeconds),
                  linger: ns(configuration.lingerTimeoutSeconds))
    }
}
