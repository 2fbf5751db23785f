import Testing
@testable import Redis

/// The connection rules with a fake clock: nanoseconds passed in by hand.
private let ms: UInt64 = 1_000_000

@Suite struct RedisConnectionStateMachineTests {
    typealias Machine = RedisConnectionStateMachine
    static let timeouts = Machine.Timeouts(call: 50 * ms, connect: 1_000 * ms)

    static func machine() -> Machine {
        Machine(timeouts: timeouts, backoff: ReconnectBackoff(initial: 100 * ms, maximum: 1_000 * ms), seed: 7)
    }

    /// A machine connected and ready at t = 10 ms.
    static func ready() -> Machine {
        var machine = machine()
        _ = machine.start(now: 0)
        _ = machine.connected(handshakeReplies: 1, now: 5 * ms)
        _ = machine.received(error: nil, now: 10 * ms)
        return machine
    }

    @Test func callsWaitForTheHandshakeThenLeaveInOrder() {
        var machine = Self.machine()
        #expect(machine.submit(1, replies: 1, now: 0) == [.connect])
        #expect(machine.submit(2, replies: 2, now: 1 * ms) == [])
        #expect(machine.nextDeadline == 50 * ms)
        #expect(machine.connected(handshakeReplies: 2, now: 3 * ms) == [.writeHandshake])
        #expect(machine.received(error: nil, now: 4 * ms) == [])
        #expect(machine.received(error: nil, now: 5 * ms) == [.availability(true), .write([1, 2])])
        #expect(machine.isUp)
        #expect(machine.submit(3, replies: 1, now: 6 * ms) == [.write([3])])
        #expect(machine.received(error: nil, now: 7 * ms) == [.reply(1, last: true)])
        #expect(machine.received(error: nil, now: 7 * ms) == [.reply(2, last: false)])
        #expect(machine.received(error: nil, now: 7 * ms) == [.reply(2, last: true)])
        #expect(machine.received(error: nil, now: 8 * ms) == [.reply(3, last: true)])
        #expect(machine.pendingCount == 0)
        #expect(machine.nextDeadline == nil)
    }

    @Test func aCallWaitingForTheConnectionTimesOutAtItsDeadline() {
        var machine = Self.machine()
        _ = machine.submit(1, replies: 1, now: 0)
        _ = machine.submit(2, replies: 1, now: 30 * ms)
        #expect(machine.tick(now: 49 * ms) == [])
        #expect(machine.tick(now: 50 * ms) == [.fail([1], .timeout)])
        #expect(machine.nextDeadline == 80 * ms)
        #expect(machine.tick(now: 80 * ms) == [.fail([2], .timeout)])
        // The connect itself goes on until its own deadline, then backs off.
        #expect(machine.nextDeadline == 1_000 * ms)
        let actions = machine.tick(now: 1_000 * ms)
        #expect(actions.first == .close)
        guard case .backingOff(let until) = machine.state else { Issue.record("\(machine.state)"); return }
        #expect(until >= 1_050 * ms && until <= 1_100 * ms)
        #expect(machine.lastFailure.contains("within 1000 ms"))
    }

    @Test func aLateReplyFailsTheCallClosesAndBacksOffAndCallsFailFastUntilTheRetry() {
        var machine = Self.ready()
        _ = machine.submit(1, replies: 1, now: 20 * ms)
        _ = machine.submit(2, replies: 1, now: 40 * ms)
        #expect(machine.tick(now: 69 * ms) == [])
        let actions = machine.tick(now: 70 * ms)
        #expect(Array(actions.prefix(3)) == [Machine.Action.fail([1], .timeout), .close, .fail([2], .connectionLost("no reply within 50 ms"))])
        #expect(actions.last == .availability(false))
        guard case .backingOff(let until) = machine.state else { Issue.record("\(machine.state)"); return }
        #expect(until >= 120 * ms && until <= 170 * ms) // 100 ms nominal, equal jitter
        #expect(machine.submit(3, replies: 1, now: 80 * ms) == [.fail([3], .unavailable("no reply within 50 ms"))])
        #expect(machine.tick(now: until - 1) == [])
        #expect(machine.tick(now: until) == [.connect])
        #expect(machine.submit(4, replies: 1, now: until) == [])
        #expect(machine.connected(handshakeReplies: 1, now: until + ms) == [.writeHandshake])
        #expect(machine.received(error: nil, now: until + 2 * ms) == [.availability(true), .write([4])])
        #expect(machine.consecutiveFailures == 0)
    }

    @Test func consecutiveFailuresBackOffLongerUpToTheMaximum() {
        var machine = Self.ready()
        var now = 100 * ms
        var delays: [UInt64] = []
        _ = machine.connectionFailed("connection closed by the server", now: now)
        for _ in 0..<6 {
            guard case .backingOff(let until) = machine.state else { Issue.record("\(machine.state)"); return }
            delays.append(until - now)
            now = until
            #expect(machine.tick(now: now) == [.connect])
            #expect(machine.connectionFailed("connect: refused", now: now) == [.close])
        }
        let nominal: [UInt64] = [100, 200, 400, 800, 1_000, 1_000].map { $0 * ms }
        for (delay, nominal) in zip(delays, nominal) {
            #expect(delay >= nominal / 2 && delay <= nominal, "\(delay) vs \(nominal)")
        }
    }

    @Test func aRefusedHandshakeFailsTheWaitingCallsWithTheServersReason() {
        var machine = Self.machine()
        _ = machine.submit(1, replies: 1, now: 0)
        _ = machine.connected(handshakeReplies: 2, now: ms)
        let refusal = RedisError.server("WRONGPASS invalid username-password pair or user is disabled.")
        let actions = machine.received(error: refusal, now: 2 * ms)
        #expect(actions == [.close, .fail([1], refusal)])
        #expect(!machine.isUp)
        #expect(machine.lastFailure.hasPrefix("handshake refused: redis: WRONGPASS"))
    }

    @Test func aBrokenConnectionFailsSentCallsAsLostAndQueuedOnesAsUnavailable() {
        var machine = Self.ready()
        _ = machine.submit(1, replies: 1, now: 20 * ms)
        #expect(machine.connectionFailed("read: Connection reset by peer", now: 21 * ms)
                == [.close, .fail([1], .connectionLost("read: Connection reset by peer")), .availability(false)])
        // Stale events of the closed connection change nothing.
        #expect(machine.received(error: nil, now: 22 * ms) == [])
        #expect(machine.connected(handshakeReplies: 1, now: 22 * ms) == [])
    }

    @Test func aReplyNobodyWaitsForIsAProtocolViolation() {
        var machine = Self.ready()
        let actions = machine.received(error: nil, now: 20 * ms)
        #expect(actions == [.close, .availability(false)])
        #expect(machine.lastFailure == "a reply arrived with no command waiting")
    }

    @Test func shutdownFailsEverythingAndRefusesLaterCalls() {
        var machine = Self.ready()
        _ = machine.submit(1, replies: 1, now: 20 * ms)
        #expect(machine.shutdown() == [.close, .fail([1], .shutDown), .availability(false)])
        #expect(machine.submit(2, replies: 1, now: 21 * ms) == [.fail([2], .shutDown)])
        #expect(machine.tick(now: 10_000 * ms) == [])
        #expect(machine.shutdown() == [])
    }

    @Test func manyPipelinedCallsAreAnsweredInSubmissionOrder() {
        var machine = Self.ready()
        for id in 1...1_000 { _ = machine.submit(UInt64(id), replies: 1, now: 20 * ms) }
        var answered: [UInt64] = []
        for _ in 1...1_000 {
            guard case .reply(let id, true)? = machine.received(error: nil, now: 21 * ms).first else { Issue.record("no reply"); return }
            answered.append(id)
        }
        #expect(answered == Array(1...1_000))
    }
}

/// `reconnectNow`: a new primary is connected to at once, whatever the state.
@Suite struct RedisReconnectNowTests {
    @Test func aReadyConnectionIsDroppedAndReplacedWithoutBackoff() {
        var machine = RedisConnectionStateMachineTests.ready()
        #expect(machine.submit(1, replies: 1, now: 11 * ms) == [.write([1])])
        let actions = machine.reconnectNow("the primary moved", now: 12 * ms)
        #expect(actions == [.close, .fail([1], .connectionLost("the primary moved")), .availability(false), .connect])
        #expect(machine.state == .connecting(deadline: 1_012 * ms))
    }

    @Test func aBackoffIsCutShortAndIdleOrShutDownStayAsTheyAre() {
        var machine = RedisConnectionStateMachineTests.machine()
        _ = machine.start(now: 0)
        _ = machine.connectionFailed("refused", now: 1 * ms)
        guard case .backingOff = machine.state else { Issue.record("not backing off"); return }
        #expect(machine.reconnectNow("moved", now: 2 * ms) == [.connect])
        var idle = RedisConnectionStateMachineTests.machine()
        #expect(idle.reconnectNow("moved", now: 0) == [])
        _ = idle.shutdown()
        #expect(idle.reconnectNow("moved", now: 0) == [])
    }
}
