import Testing
@testable import HTTP1

/// The connection's protocol rules, driven with a fake clock and synthetic events.
@Suite struct ConnectionStateMachineTests {
    typealias Machine = ConnectionStateMachine
    static let second: UInt64 = 1_000_000_000
    static let timeouts = Machine.Timeouts(header: 10 * second, idle: 60 * second, body: 30 * second,
                                           write: 20 * second, linger: 2 * second)

    /// A fake monotonic clock plus a machine; `t` is seconds since accept.
    struct Harness {
        var machine: Machine
        var now: UInt64 = 1_000 * ConnectionStateMachineTests.second
        init() {
            machine = Machine(timeouts: ConnectionStateMachineTests.timeouts, now: now)
        }
        mutating func advance(_ seconds: Double) {
            now += UInt64(seconds * 1e9)
        }
        func at(_ seconds: Double) -> UInt64 { 1_000 * ConnectionStateMachineTests.second + UInt64(seconds * 1e9) }

        /// A whole keep-alive exchange whose response is written at once.
        mutating func serve(keepAlive: Bool = true) -> Machine.Action {
            #expect(machine.requestReceived(keepAlive: keepAlive, now: now).action == .respond)
            let write = machine.responseReady(now: now).action
            #expect(write == .writeResponse(close: !keepAlive))
            return machine.writeFinished(now: now).action
        }
    }

    @Test func freshConnectionArmsHeaderTimeoutAndClosesSilently() {
        var h = Harness()
        #expect(h.machine.start(now: h.now) == .init(action: .none, timer: .arm(h.at(10))))
        h.advance(10)
        #expect(h.machine.timerFired(now: h.now).action == .close)
        #expect(h.machine.state == .closed)
    }

    @Test func keepAliveServesManyRequestsThenIdleCloses() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        for _ in 0..<3 {
            h.advance(1)
            #expect(h.serve() == .pullInput)
            #expect(h.machine.needMore(phase: .idle, now: h.now).action == .none)
        }
        #expect(h.machine.requestCount == 3)
        // The armed timer (header deadline at t=10) fires early: it re-arms for idle.
        h.advance(7)
        let step = h.machine.timerFired(now: h.now)
        #expect(step == .init(action: .none, timer: .arm(h.at(3 + 60))))
        h.advance(55)
        #expect(h.machine.timerFired(now: h.now).action == .close)
    }

    @Test func connectionCloseRequestClosesAfterTheResponseWithLinger() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        #expect(h.serve(keepAlive: false) == .closeLingering)
        #expect(h.machine.state == .lingering(until: h.at(2)))
        #expect(h.machine.canPullInput == false)
        #expect(h.machine.peerClosed(now: h.now).action == .close)
    }

    @Test func lingerEndsAtItsDeadline() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        #expect(h.serve(keepAlive: false) == .closeLingering)
        h.advance(2)
        #expect(h.machine.timerFired(now: h.now).action == .close)
    }

    @Test func pipelinedRequestsAreAnsweredOneAtATime() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        #expect(h.machine.requestReceived(keepAlive: true, now: h.now).action == .respond)
        // While the responder works, the next buffered request must not be pulled.
        #expect(h.machine.canPullInput == false)
        #expect(h.machine.requestReceived(keepAlive: true, now: h.now).action == .none)
        #expect(h.machine.responseReady(now: h.now).action == .writeResponse(close: false))
        // The socket is slow: still no next request until the response is flushed.
        _ = h.machine.writeBlocked(now: h.now)
        #expect(h.machine.canPullInput == false)
        #expect(h.machine.writeFinished(now: h.now).action == .pullInput)
        #expect(h.machine.canPullInput)
        #expect(h.machine.requestReceived(keepAlive: true, now: h.now).action == .respond)
        #expect(h.machine.requestCount == 2)
    }

    @Test func noDeadlineWhileTheResponderWorks() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        _ = h.machine.requestReceived(keepAlive: true, now: h.now)
        #expect(h.machine.deadline == nil)
        h.advance(100)
        #expect(h.machine.timerFired(now: h.now) == .init(action: .none, timer: .unchanged))
        #expect(h.machine.responseReady(now: h.now).action == .writeResponse(close: false))
    }

    @Test func slowHeaderGets408ThenLingeringClose() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        h.advance(1)
        #expect(h.machine.needMore(phase: .head, now: h.now).action == .none)
        h.advance(9.5)
        // The first deadline (t=10, fresh connection) fires early for the head started at t=1.
        #expect(h.machine.timerFired(now: h.now) == .init(action: .none, timer: .arm(h.at(11))))
        h.advance(0.5)
        guard case let .writeProblem(problem) = h.machine.timerFired(now: h.now).action else {
            Issue.record("expected a 408 problem")
            return
        }
        #expect(problem.status == .requestTimeout)
        #expect(problem.detail.contains("10 seconds"))
        #expect(h.machine.canPullInput == false)
        #expect(h.machine.writeFinished(now: h.now).action == .closeLingering)
    }

    @Test func headerDeadlineIsNotExtendedByTrickledBytes() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        _ = h.machine.needMore(phase: .head, now: h.now)
        for _ in 0..<9 {
            h.advance(1)
            _ = h.machine.needMore(phase: .head, now: h.now) // one more byte each second
        }
        #expect(h.machine.deadline == h.at(10))
    }

    @Test func slowBodyGets408() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        _ = h.machine.needMore(phase: .head, now: h.now)
        h.advance(1)
        _ = h.machine.needMore(phase: .body, now: h.now)
        #expect(h.machine.deadline == h.at(31))
        h.advance(30)
        _ = h.machine.timerFired(now: h.at(10)) // the early header deadline re-arms
        guard case let .writeProblem(problem) = h.machine.timerFired(now: h.now).action else {
            Issue.record("expected a 408 problem")
            return
        }
        #expect(problem.status == .requestTimeout)
    }

    @Test func stalledWriteClosesWithoutAResponse() {
        var h = Harness.blockedOnItsFirstResponse()
        #expect(h.machine.deadline == h.at(20))
        h.advance(15)
        // The fresh-connection deadline (t=10) fires late, finds the write deadline ahead.
        #expect(h.machine.timerFired(now: h.now) == .init(action: .none, timer: .arm(h.at(20))))
        _ = h.machine.writeProgressed(now: h.now)
        h.advance(5)
        #expect(h.machine.timerFired(now: h.now) == .init(action: .none, timer: .arm(h.at(35))))
        h.advance(15)
        #expect(h.machine.timerFired(now: h.now).action == .close)
    }

    @Test func expectContinueSendsInterimResponseOnce() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        #expect(h.machine.expectContinue(now: h.now).action == .writeContinue)
        #expect(h.machine.state == .writing(.interim(bodySince: h.at(0)), stalledSince: nil, []))
        #expect(h.machine.writeFinished(now: h.now).action == .pullInput)
        #expect(h.machine.needMore(phase: .body, now: h.now).action == .none)
        #expect(h.machine.deadline == h.at(30))
    }

    @Test func parseErrorAnswersThenCloses() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        let step = h.machine.parseError(status: .badRequest, detail: "bad", now: h.now)
        #expect(step.action == .writeProblem(.init(status: .badRequest, detail: "bad")))
        #expect(h.machine.canPullInput == false)
        #expect(h.machine.parseError(status: .badRequest, detail: "again", now: h.now).action == .none)
        #expect(h.machine.writeFinished(now: h.now).action == .closeLingering)
    }

    @Test func halfCloseStillAnswersTheRequestInFlight() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        _ = h.machine.requestReceived(keepAlive: true, now: h.now)
        #expect(h.machine.peerClosed(now: h.now).action == .none)
        #expect(h.machine.responseReady(now: h.now).action == .writeResponse(close: false))
        #expect(h.machine.writeFinished(now: h.now).action == .pullInput)
        // Nothing else buffered: the parser says needMore and the connection closes.
        #expect(h.machine.needMore(phase: .idle, now: h.now).action == .close)
    }

    @Test func peerCloseWhileIdleClosesAtOnce() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        #expect(h.serve() == .pullInput)
        _ = h.machine.needMore(phase: .idle, now: h.now)
        #expect(h.machine.peerClosed(now: h.now).action == .close)
        #expect(h.machine.timerFired(now: h.now + 100 * Self.second).action == .none)
    }

    @Test func peerCloseWithPartialRequestCloses() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        _ = h.machine.needMore(phase: .head, now: h.now)
        #expect(h.machine.peerClosed(now: h.now).action == .close)
    }

    @Test func peerCloseDuringFinalWriteClosesWithoutLinger() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        _ = h.machine.requestReceived(keepAlive: false, now: h.now)
        _ = h.machine.responseReady(now: h.now)
        _ = h.machine.writeBlocked(now: h.now)
        #expect(h.machine.peerClosed(now: h.now).action == .none)
        #expect(h.machine.writeFinished(now: h.now).action == .close)
    }

    @Test func shutdownClosesIdleConnectionAtOnce() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        #expect(h.serve() == .pullInput)
        _ = h.machine.needMore(phase: .idle, now: h.now)
        #expect(h.machine.shutdownRequested(now: h.now).action == .close)
    }

    @Test func shutdownWhileBusyAnswersWithCloseThenCloses() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        _ = h.machine.requestReceived(keepAlive: true, now: h.now)
        #expect(h.machine.shutdownRequested(now: h.now).action == .none)
        #expect(h.machine.responseReady(now: h.now).action == .writeResponse(close: true))
        #expect(h.machine.writeFinished(now: h.now).action == .closeLingering)
    }

    @Test func shutdownWhileWritingAKeepAliveResponseClosesWhenNothingElseIsBuffered() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        _ = h.machine.requestReceived(keepAlive: true, now: h.now)
        _ = h.machine.responseReady(now: h.now)
        _ = h.machine.writeBlocked(now: h.now)
        #expect(h.machine.shutdownRequested(now: h.now).action == .none)
        #expect(h.machine.writeFinished(now: h.now).action == .pullInput)
        #expect(h.machine.needMore(phase: .idle, now: h.now).action == .close)
    }

    @Test func shutdownLetsAPartlyReceivedRequestFinish() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        _ = h.machine.needMore(phase: .head, now: h.now)
        #expect(h.machine.shutdownRequested(now: h.now).action == .none)
        _ = h.machine.requestReceived(keepAlive: true, now: h.now)
        #expect(h.machine.responseReady(now: h.now).action == .writeResponse(close: true))
    }

    @Test func forceCloseIsFinalAndIdempotent() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        _ = h.machine.requestReceived(keepAlive: true, now: h.now)
        #expect(h.machine.forceClose().action == .close)
        #expect(h.machine.forceClose().action == .none)
        #expect(h.machine.responseReady(now: h.now).action == .none)
        #expect(h.machine.writeFinished(now: h.now).action == .none)
    }

    @Test func ioFailureCloses() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        _ = h.machine.requestReceived(keepAlive: true, now: h.now)
        _ = h.machine.responseReady(now: h.now)
        #expect(h.machine.ioFailed().action == .close)
    }

    @Test func timerIsOnlyMovedEarlier() {
        var h = Harness()
        #expect(h.machine.start(now: h.now).timer == .arm(h.at(10)))
        // Serving requests pushes the deadline later: no re-arm until the armed one fires.
        h.advance(1)
        #expect(h.machine.requestReceived(keepAlive: true, now: h.now).timer == .unchanged)
        #expect(h.machine.responseReady(now: h.now).timer == .unchanged)
        #expect(h.machine.writeFinished(now: h.now).timer == .unchanged)
        #expect(h.machine.armedDeadline == h.at(10))
    }
}
