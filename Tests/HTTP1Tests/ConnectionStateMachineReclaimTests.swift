import Testing
@testable import HTTP1

extension ConnectionStateMachineTests.Harness {
    /// A connection whose first (keep-alive) response the socket would not take entirely.
    static func blockedOnItsFirstResponse() -> Self {
        var h = Self()
        _ = h.machine.start(now: h.now)
        _ = h.machine.requestReceived(keepAlive: true, now: h.now)
        _ = h.machine.responseReady(now: h.now)
        _ = h.machine.writeBlocked(now: h.now)
        return h
    }
}

/// Which connections may be closed to make room at `maxConnections`, driven with the fake
/// clock: only those waiting for a request with nothing of one received.
extension ConnectionStateMachineTests {
    @Test func freshConnectionIsReclaimableAsSilentUntilItsFirstByte() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        #expect(h.machine.reclaimable == .silent)
        #expect(h.machine.waitingSince == h.at(0))
        h.advance(9.9) // still before the header deadline
        #expect(h.machine.reclaimable == .silent)
        #expect(h.machine.reclaimRequested(now: h.now).action == .close)
        #expect(h.machine.state == .closed)
        #expect(h.machine.reclaimable == nil)
        // Nothing more happens to a closed connection, not even a second reclaim.
        #expect(h.machine.reclaimRequested(now: h.now).action == .none)
        h.advance(1)
        #expect(h.machine.timerFired(now: h.now).action == .none)
    }

    @Test func emptyLinesBeforeTheFirstRequestLeaveItSilent() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        h.advance(1)
        // RFC 9112 §2.2: CRLFs before a request line are consumed; the parser stays idle.
        #expect(h.machine.needMore(phase: .idle, now: h.now).action == .none)
        #expect(h.machine.reclaimable == .silent)
    }

    @Test func idleKeepAliveIsReclaimableOnlyOnceItsResponseIsFlushedAndNothingFollows() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        h.advance(1)
        #expect(h.machine.requestReceived(keepAlive: true, now: h.now).action == .respond)
        #expect(h.machine.reclaimable == nil) // in the responder's hands
        h.advance(1)
        #expect(h.machine.responseReady(now: h.now).action == .writeResponse(close: false))
        #expect(h.machine.reclaimable == nil) // being written
        #expect(h.machine.writeFinished(now: h.now).action == .pullInput)
        // Flushed, but the parser has not said yet whether a pipelined request is buffered.
        #expect(h.machine.reclaimable == nil)
        #expect(h.machine.needMore(phase: .idle, now: h.now).action == .none)
        #expect(h.machine.reclaimable == .idle)
        #expect(h.machine.waitingSince == h.at(2))
        h.advance(30)
        #expect(h.machine.reclaimRequested(now: h.now) == .init(action: .close, timer: .unchanged))
    }

    @Test func pipelinedRequestAfterAFlushIsNeverReclaimable() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        #expect(h.serve() == .pullInput)
        // The parser hands over the next buffered request without a needMore in between.
        #expect(h.machine.requestReceived(keepAlive: true, now: h.now).action == .respond)
        #expect(h.machine.reclaimable == nil)
        #expect(h.machine.reclaimRequested(now: h.now).action == .none)
        #expect(h.machine.state == .responding(keepAlive: true, []))
    }

    @Test func partlyReceivedRequestIsNotReclaimable() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        #expect(h.serve() == .pullInput)
        _ = h.machine.needMore(phase: .idle, now: h.now)
        #expect(h.machine.reclaimable == .idle)
        h.advance(1)
        _ = h.machine.needMore(phase: .head, now: h.now) // "GET /x HT" arrived
        #expect(h.machine.reclaimable == nil)
        #expect(h.machine.reclaimRequested(now: h.now).action == .none)
        _ = h.machine.needMore(phase: .body, now: h.now)
        #expect(h.machine.reclaimable == nil)
        #expect(h.machine.reclaimRequested(now: h.now).action == .none)
        #expect(h.machine.state == .receiving(.body, since: h.at(1), []))
        // Still governed by its own deadline: the body timeout answers 408.
        h.advance(30)
        _ = h.machine.timerFired(now: h.at(10))
        guard case let .writeProblem(problem) = h.machine.timerFired(now: h.now).action, problem.status == .requestTimeout else {
            Issue.record("expected a 408")
            return
        }
    }

    @Test func firstRequestPartlyReceivedIsNotSilent() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        _ = h.machine.needMore(phase: .head, now: h.now)
        #expect(h.machine.reclaimable == nil)
        #expect(h.machine.reclaimRequested(now: h.now).action == .none)
    }

    @Test func waitingForTheBodyAfter100ContinueIsNotReclaimable() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        #expect(h.machine.expectContinue(now: h.now).action == .writeContinue)
        #expect(h.machine.reclaimable == nil)
        #expect(h.machine.writeFinished(now: h.now).action == .pullInput)
        #expect(h.machine.reclaimable == nil)
    }

    @Test func responseBlockedOnASlowReaderIsNotReclaimable() {
        var h = Harness.blockedOnItsFirstResponse()
        h.advance(10)
        #expect(h.machine.reclaimable == nil)
        #expect(h.machine.reclaimRequested(now: h.now).action == .none)
        #expect(h.machine.state == .writing(.response, stalledSince: h.at(0), []))
        // Once flushed and idle, it is reclaimable again.
        #expect(h.machine.writeFinished(now: h.now).action == .pullInput)
        _ = h.machine.needMore(phase: .idle, now: h.now)
        #expect(h.machine.reclaimable == .idle)
        #expect(h.machine.waitingSince == h.at(10))
    }

    @Test func finalResponsesAndClosingConnectionsAreNotReclaimable() {
        // Lingering after `Connection: close`.
        var lingering = Harness()
        _ = lingering.machine.start(now: lingering.now)
        #expect(lingering.serve(keepAlive: false) == .closeLingering)
        #expect(lingering.machine.reclaimable == nil)
        #expect(lingering.machine.reclaimRequested(now: lingering.now).action == .none)
        #expect(lingering.machine.state == .lingering(until: lingering.at(2)))

        // An error answer queued (e.g. the 503 of a refused connection).
        var refused = Harness()
        _ = refused.machine.start(now: refused.now)
        _ = refused.machine.parseError(status: .serviceUnavailable, detail: "full", now: refused.now)
        #expect(refused.machine.reclaimable == nil)

        // Draining for shutdown while a request is in flight, then idle: shutdown closes it.
        var draining = Harness()
        _ = draining.machine.start(now: draining.now)
        _ = draining.machine.requestReceived(keepAlive: true, now: draining.now)
        _ = draining.machine.shutdownRequested(now: draining.now)
        #expect(draining.machine.reclaimable == nil)

        // The peer half-closed while its request is in flight.
        var halfClosed = Harness()
        _ = halfClosed.machine.start(now: halfClosed.now)
        _ = halfClosed.machine.requestReceived(keepAlive: true, now: halfClosed.now)
        _ = halfClosed.machine.peerClosed(now: halfClosed.now)
        _ = halfClosed.machine.responseReady(now: halfClosed.now)
        _ = halfClosed.machine.writeFinished(now: halfClosed.now)
        #expect(halfClosed.machine.reclaimable == nil)
    }

    @Test func reclaimabilityFollowsEveryKeepAliveRequest() {
        var h = Harness()
        _ = h.machine.start(now: h.now)
        for round in 1...3 {
            h.advance(5)
            #expect(h.machine.requestReceived(keepAlive: true, now: h.now).action == .respond)
            #expect(h.machine.reclaimable == nil)
            _ = h.machine.responseReady(now: h.now)
            #expect(h.machine.writeFinished(now: h.now).action == .pullInput)
            _ = h.machine.needMore(phase: .idle, now: h.now)
            #expect(h.machine.reclaimable == .idle)
            #expect(h.machine.waitingSince == h.at(Double(5 * round)))
        }
        // The idle deadline still closes it if nobody reclaims it first.
        h.advance(60)
        _ = h.machine.timerFired(now: h.at(10))
        #expect(h.machine.timerFired(now: h.now).action == .close)
    }
}
