import Testing
@testable import HTTP1

/// Every event in every state, with the fake clock: the state enum makes each transition
/// explicit, and these tests pin down what each one does — including the events that mean
/// nothing in a state, which must leave it untouched rather than trap or half-apply.
extension ConnectionStateMachineTests {
    /// A state reached through real events from a fresh connection (accepted at t=0), one
    /// second before the event under test.
    struct Situation: Sendable {
        let name: String
        let build: @Sendable (inout Harness) -> Void
    }

    /// The events, each reduced to a short word: "-" nothing to do, "pull", "100" (write
    /// `100 Continue`), "problem", "respond", "write" / "write+close", "linger", "close".
    /// A trailing "*" marks an event that did nothing visible but changed the state.
    struct Event: Sendable {
        let name: String
        let run: @Sendable (inout Harness) -> String
    }

    static let situations: [Situation] = [
        Situation(name: "awaitingRequest (fresh)") { _ in },
        Situation(name: "awaitingRequest (idle keep-alive)") { h in
            _ = h.serve()
            _ = h.machine.needMore(phase: .idle, now: h.now)
        },
        Situation(name: "responseFlushed") { h in _ = h.serve() },
        Situation(name: "responseFlushed, peer closed") { h in
            _ = h.machine.requestReceived(keepAlive: true, now: h.now)
            _ = h.machine.peerClosed(now: h.now)
            _ = h.machine.responseReady(now: h.now)
            _ = h.machine.writeFinished(now: h.now)
        },
        Situation(name: "receiving head") { h in _ = h.machine.needMore(phase: .head, now: h.now) },
        Situation(name: "receiving body, draining") { h in
            _ = h.machine.needMore(phase: .body, now: h.now)
            _ = h.machine.shutdownRequested(now: h.now)
        },
        Situation(name: "responding") { h in _ = h.machine.requestReceived(keepAlive: true, now: h.now) },
        Situation(name: "responding, draining") { h in
            _ = h.machine.requestReceived(keepAlive: true, now: h.now)
            _ = h.machine.shutdownRequested(now: h.now)
        },
        Situation(name: "writing response") { h in
            _ = h.machine.requestReceived(keepAlive: true, now: h.now)
            _ = h.machine.responseReady(now: h.now)
        },
        Situation(name: "writing response, stalled") { h in
            _ = h.machine.requestReceived(keepAlive: true, now: h.now)
            _ = h.machine.responseReady(now: h.now)
            _ = h.machine.writeBlocked(now: h.now)
        },
        Situation(name: "writing final") { h in
            _ = h.machine.parseError(status: .badRequest, detail: "bad", now: h.now)
        },
        Situation(name: "writing final, peer closed") { h in
            _ = h.machine.requestReceived(keepAlive: false, now: h.now)
            _ = h.machine.peerClosed(now: h.now)
            _ = h.machine.responseReady(now: h.now)
        },
        Situation(name: "writing interim") { h in _ = h.machine.expectContinue(now: h.now) },
        Situation(name: "lingering") { h in _ = h.serve(keepAlive: false) },
        Situation(name: "closed") { h in _ = h.machine.forceClose() },
    ]

    static let events: [Event] = [
        Event(name: "needMore(idle)") { h in ConnectionStateMachineTests.word(h.machine.needMore(phase: .idle, now: h.now).action) },
        Event(name: "needMore(head)") { h in ConnectionStateMachineTests.word(h.machine.needMore(phase: .head, now: h.now).action) },
        Event(name: "needMore(body)") { h in ConnectionStateMachineTests.word(h.machine.needMore(phase: .body, now: h.now).action) },
        Event(name: "requestReceived") { h in
            switch h.machine.requestReceived(keepAlive: true, now: h.now).action {
            case .none: return "-"
            case .respond: return "respond"
            }
        },
        Event(name: "expectContinue") { h in ConnectionStateMachineTests.word(h.machine.expectContinue(now: h.now).action) },
        Event(name: "parseError") { h in
            ConnectionStateMachineTests.word(h.machine.parseError(status: .badRequest, detail: "bad", now: h.now).action)
        },
        Event(name: "peerClosed") { h in ConnectionStateMachineTests.word(h.machine.peerClosed(now: h.now).action) },
        Event(name: "responseReady") { h in
            switch h.machine.responseReady(now: h.now).action {
            case .none: return "-"
            case let .writeResponse(close): return close ? "write+close" : "write"
            }
        },
        Event(name: "writeBlocked") { h in ConnectionStateMachineTests.word(h.machine.writeBlocked(now: h.now).action) },
        Event(name: "writeProgressed") { h in ConnectionStateMachineTests.word(h.machine.writeProgressed(now: h.now).action) },
        Event(name: "writeFinished") { h in ConnectionStateMachineTests.word(h.machine.writeFinished(now: h.now).action) },
        Event(name: "ioFailed") { h in ConnectionStateMachineTests.word(h.machine.ioFailed().action) },
        // At the state's deadline, or far later when none runs.
        Event(name: "timerFired") { h in
            ConnectionStateMachineTests.word(h.machine.timerFired(now: h.machine.deadline ?? h.now + 1_000 * ConnectionStateMachineTests.second).action)
        },
        Event(name: "shutdownRequested") { h in ConnectionStateMachineTests.word(h.machine.shutdownRequested(now: h.now).action) },
        Event(name: "reclaimRequested") { h in ConnectionStateMachineTests.word(h.machine.reclaimRequested(now: h.now).action) },
        Event(name: "forceClose") { h in ConnectionStateMachineTests.word(h.machine.forceClose().action) },
    ]

    static func word(_ action: Machine.Action) -> String {
        switch action {
        case .none: return "-"
        case .pullInput: return "pull"
        case .writeContinue: return "100"
        case .writeProblem: return "problem"
        case .closeLingering: return "linger"
        case .close: return "close"
        }
    }

    /// Rows follow `situations`, columns follow `events`.
    static let expected: [[String]] = [
        //  idle    head    body    request    100     error      eof      ready          blocked progress flushed  io       timer      shutdown reclaim  force
        ["-",     "-*",   "-*",   "respond", "100",  "problem", "close", "-",           "-",    "-",     "-",     "close", "close",   "close", "close", "close"], // awaitingRequest (fresh)
        ["-",     "-*",   "-*",   "respond", "100",  "problem", "close", "-",           "-",    "-",     "-",     "close", "close",   "close", "close", "close"], // awaitingRequest (idle)
        ["-*",    "-*",   "-*",   "respond", "100",  "problem", "close", "-",           "-",    "-",     "-",     "close", "close",   "close", "-",     "close"], // responseFlushed
        ["close", "close", "close", "respond", "100", "problem", "close", "-",           "-",    "-",     "-",     "close", "close",   "close", "-",     "close"], // responseFlushed, peer closed
        ["-*",    "-",    "-*",   "respond", "100",  "problem", "close", "-",           "-",    "-",     "-",     "close", "problem", "-*",    "-",     "close"], // receiving head
        ["close", "-*",   "-",    "respond", "100",  "problem", "close", "-",           "-",    "-",     "-",     "close", "problem", "-",     "-",     "close"], // receiving body, draining
        ["-",     "-",    "-",    "-",       "-",    "-",       "-*",    "write",       "-",    "-",     "-",     "close", "-",       "-*",    "-",     "close"], // responding
        ["-",     "-",    "-",    "-",       "-",    "-",       "-*",    "write+close", "-",    "-",     "-",     "close", "-",       "-",     "-",     "close"], // responding, draining
        ["-",     "-",    "-",    "-",       "-",    "-",       "-*",    "-",           "-*",   "-*",    "pull",  "close", "-",       "-*",    "-",     "close"], // writing response
        ["-",     "-",    "-",    "-",       "-",    "-",       "-*",    "-",           "-",    "-*",    "pull",  "close", "close",   "-*",    "-",     "close"], // writing response, stalled
        ["-",     "-",    "-",    "-",       "-",    "-",       "-*",    "-",           "-*",   "-*",    "linger", "close", "-",      "-*",    "-",     "close"], // writing final
        ["-",     "-",    "-",    "-",       "-",    "-",       "-",     "-",           "-*",   "-*",    "close", "close", "-",       "-*",    "-",     "close"], // writing final, peer closed
        ["-",     "-",    "-",    "-",       "-",    "-",       "-*",    "-",           "-*",   "-*",    "pull",  "close", "-",       "-*",    "-",     "close"], // writing interim
        ["-",     "-",    "-",    "-",       "-",    "-",       "close", "-",           "-",    "-",     "-",     "close", "close",   "-",     "-",     "close"], // lingering
        ["-",     "-",    "-",    "-",       "-",    "-",       "-",     "-",           "-",    "-",     "-",     "-",     "-",       "-",     "-",     "-"],     // closed
    ]

    @Test func everyEventInEveryStateDoesWhatTheTableSays() {
        #expect(Self.expected.count == Self.situations.count)
        for (row, situation) in Self.situations.enumerated() {
            #expect(Self.expected[row].count == Self.events.count, "row \(situation.name)")
            for (column, event) in Self.events.enumerated() {
                var h = Harness()
                _ = h.machine.start(now: h.now)
                situation.build(&h)
                h.advance(1)
                let before = h.machine.state
                var outcome = event.run(&h)
                if outcome == "-" && h.machine.state != before { outcome = "-*" }
                #expect(outcome == Self.expected[row][column], "\(event.name) in \(situation.name)")
                // A close is final; nothing reopens a closed connection.
                if outcome == "close" || before == .closed { #expect(h.machine.state == .closed) }
            }
        }
    }

    @Test func theTableCoversEveryCaseOfTheStateEnum() {
        var seen = Set<String>()
        for situation in Self.situations {
            var h = Harness()
            _ = h.machine.start(now: h.now)
            situation.build(&h)
            switch h.machine.state {
            case .awaitingRequest: seen.insert("awaitingRequest")
            case .responseFlushed: seen.insert("responseFlushed")
            case .receiving(.head, _, _): seen.insert("receiving head")
            case .receiving(.body, _, _): seen.insert("receiving body")
            case .responding: seen.insert("responding")
            case .writing(.response, _, _): seen.insert("writing response")
            case .writing(.final, _, _): seen.insert("writing final")
            case .writing(.interim, _, _): seen.insert("writing interim")
            case .lingering: seen.insert("lingering")
            case .closed: seen.insert("closed")
            }
        }
        #expect(seen.count == 10)
    }

    @Test func interimResponseKeepsTheDeadlineOfABodyAlreadyArriving() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        h.advance(1)
        _ = h.machine.needMore(phase: .body, now: h.now)
        h.advance(4)
        #expect(h.machine.expectContinue(now: h.now).action == .writeContinue)
        #expect(h.machine.state == .writing(.interim(bodySince: h.at(1)), stalledSince: nil, []))
        _ = h.machine.writeBlocked(now: h.now)
        #expect(h.machine.deadline == h.at(5 + 20)) // while stalled, the write deadline
        #expect(h.machine.writeFinished(now: h.now).action == .pullInput)
        #expect(h.machine.state == .receiving(.body, since: h.at(1), []))
        #expect(h.machine.deadline == h.at(31))
    }

    @Test func noDeadlineWhileAWriteCallIsUnderWay() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        _ = h.machine.requestReceived(keepAlive: true, now: h.now)
        _ = h.machine.responseReady(now: h.now)
        #expect(h.machine.deadline == nil)
        #expect(h.machine.timerFired(now: h.now + 1_000 * Self.second) == .init(action: .none, timer: .unchanged))
        _ = h.machine.writeBlocked(now: h.now)
        #expect(h.machine.deadline == h.at(20))
    }

    @Test func shutdownAndEOFTravelWithTheRequestToItsResponse() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        _ = h.machine.needMore(phase: .head, now: h.now)
        _ = h.machine.shutdownRequested(now: h.now)
        _ = h.machine.requestReceived(keepAlive: true, now: h.now)
        _ = h.machine.peerClosed(now: h.now)
        #expect(h.machine.state == .responding(keepAlive: true, [.draining, .inputClosed]))
        #expect(h.machine.inputClosed)
        #expect(h.machine.responseReady(now: h.now).action == .writeResponse(close: true))
        #expect(h.machine.discardsInput)
        // Half-closed: nothing left to read, so no lingering.
        #expect(h.machine.writeFinished(now: h.now).action == .close)
    }

    @Test func aSecondBlockDoesNotRestartTheWriteDeadline() {
        var h = Harness.blockedOnItsFirstResponse()
        h.advance(5)
        _ = h.machine.writeBlocked(now: h.now)
        #expect(h.machine.deadline == h.at(20))
        _ = h.machine.writeProgressed(now: h.now)
        #expect(h.machine.deadline == h.at(25))
    }
}
