/// The logic of one Redis client connection, with no sockets and no clock of its own.
///
/// The socket driver (`RedisClient`) feeds it events — a call submitted, the TCP connection
/// established, a reply received, the connection broken, a timer fired — and executes the
/// `Action`s each returns. Time is monotonic nanoseconds passed in, and the reconnect jitter comes
/// from a seeded generator, so every rule below is unit-tested with a fake clock:
///
/// - The connection opens on first use (or `start`). Calls submitted while it is being opened
///   and authenticated wait; once the handshake (`HELLO 3 AUTH …`, `SELECT`) succeeds they are
///   written in submission order.
/// - Replies are matched to calls strictly in order (RESP has no request ids: pipelining relies on
///   Redis answering in order). A call may expect several replies (a pipeline).
/// - Every call has a deadline (`timeouts.call` after submission). A call still waiting for the
///   connection fails with `.timeout` at its deadline. A call whose reply is late means the
///   stream is stuck (a stalled or overloaded server): it fails with `.timeout`, the connection is
///   closed (a late reply could otherwise be taken for the next call's), and the other calls on
///   it fail with `.connectionLost`.
/// - Opening (connect + handshake) is bounded by `timeouts.connect`.
/// - After any failure the client backs off (`ReconnectBackoff`), then reconnects by itself. While
///   it backs off, calls fail at once with `.unavailable` instead of queueing: a cache must fall
///   back to its other layers within its budget, not wait for Redis to return.
struct RedisConnectionStateMachine: Sendable {
    typealias Nanos = UInt64
    typealias CallID = UInt64

    struct Timeouts: Sendable, Equatable {
        var call: Nanos
        var connect: Nanos
    }

    enum State: Sendable, Equatable {
        /// Never connected and nothing asked for yet.
        case idle
        case connecting(deadline: Nanos)
        case handshaking(deadline: Nanos, repliesLeft: Int)
        case ready
        case backingOff(until: Nanos)
        case shutDown
    }

    enum Action: Sendable, Equatable {
        /// Open a new connection (resolve, connect); report `connected` or `connectionFailed`.
        case connect
        /// Write the handshake commands.
        case writeHandshake
        /// Write these calls' commands, in this order.
        case write([CallID])
        /// The reply just received belongs to this call; `last` when it was its final one.
        case reply(CallID, last: Bool)
        case fail([CallID], RedisError)
        /// Close the current connection (its later events are stale and must be ignored).
        case close
        /// The client became usable (`true`) or stopped being usable (`false`).
        case availability(Bool)
    }

    private struct Call: Sendable {
        var id: CallID
        var deadline: Nanos
        var repliesLeft: Int
    }

    private(set) var state: State = .idle
    /// The reason of the last failure (for `.unavailable`), never holding a secret.
    private(set) var lastFailure = "not connected yet"
    private(set) var isUp = false
    private let timeouts: Timeouts
    private var backoff: ReconnectBackoff
    private var waiting = CallQueue<Call>()
    private var inFlight = CallQueue<Call>()
    private var random: UInt64

    init(timeouts: Timeouts, backoff: ReconnectBackoff, seed: UInt64) {
        self.timeouts = timeouts
        self.backoff = backoff
        self.random = seed
    }

    /// Calls submitted and not finished yet.
    var pendingCount: Int { waiting.count + inFlight.count }

    /// The consecutive failed connection attempts (0 once connected).
    var consecutiveFailures: Int { backoff.failures }

    /// When `tick` must run next, or nil when no deadline is pending.
    var nextDeadline: Nanos? {
        switch state {
        case .connecting(let deadline), .handshaking(let deadline, _):
            return min(deadline, waiting.first?.deadline ?? deadline)
        case .ready:
            return inFlight.first?.deadline
        case .backingOff(let until):
            return until
        case .idle, .shutDown:
            return nil
        }
    }

    // MARK: - Events

    /// Opens the connection ahead of the first call.
    mutating func start(now: Nanos) -> [Action] {
        guard state == .idle else { return [] }
        state = .connecting(deadline: now &+ timeouts.connect)
        return [.connect]
    }

    /// A call expecting `replies` replies (≥ 1) was submitted.
    mutating func submit(_ id: CallID, replies: Int, now: Nanos) -> [Action] {
        let call = Call(id: id, deadline: now &+ timeouts.call, repliesLeft: max(1, replies))
        switch state {
        case .shutDown:
            return [.fail([id], .shutDown)]
        case .backingOff:
            return [.fail([id], .unavailable(lastFailure))]
        case .ready:
            inFlight.append(call)
            return [.write([id])]
        case .idle:
            state = .connecting(deadline: now &+ timeouts.connect)
            waiting.append(call)
            return [.connect]
        case .connecting, .handshaking:
            waiting.append(call)
            return []
        }
    }

    /// The TCP connection is established; the handshake expects `handshakeReplies` replies.
    mutating func connected(handshakeReplies: Int, now: Nanos) -> [Action] {
        guard case .connecting(let deadline) = state else { return [] }
        guard handshakeReplies > 0 else { return becomeReady() }
        state = .handshaking(deadline: deadline, repliesLeft: handshakeReplies)
        return [.writeHandshake]
    }

    /// A reply (not a push) arrived; `error` is set when it is an error reply (already masked).
    mutating func received(error: RedisError?, now: Nanos) -> [Action] {
        switch state {
        case .handshaking(let deadline, let left):
            if let error {
                return failConnection("handshake refused: \(error)", now: now, waitingError: error)
            }
            if left <= 1 { return becomeReady() }
            state = .handshaking(deadline: deadline, repliesLeft: left - 1)
            return []
        case .ready:
            guard var head = inFlight.first else {
                return failConnection("a reply arrived with no command waiting", now: now)
            }
            head.repliesLeft -= 1
            if head.repliesLeft == 0 {
                _ = inFlight.popFirst()
                return [.reply(head.id, last: true)]
            }
            inFlight.replaceFirst(head)
            return [.reply(head.id, last: false)]
        case .idle, .connecting, .backingOff, .shutDown:
            return []
        }
    }

    /// The connection could not be opened or broke (EOF, reset, protocol error, write error).
    mutating func connectionFailed(_ reason: String, now: Nanos) -> [Action] {
        switch state {
        case .connecting, .handshaking, .ready:
            return failConnection(reason, now: now)
        case .idle, .backingOff, .shutDown:
            return []
        }
    }

    /// The server to talk to changed (Sentinel announced a new primary): drop the connection, if
    /// any, and connect again at once instead of after the backoff.
    mutating func reconnectNow(_ reason: String, now: Nanos) -> [Action] {
        switch state {
        case .connecting, .handshaking, .ready:
            let actions = failConnection(reason, now: now)
            state = .connecting(deadline: now &+ timeouts.connect)
            return actions + [.connect]
        case .backingOff:
            state = .connecting(deadline: now &+ timeouts.connect)
            return [.connect]
        case .idle, .shutDown:
            return []
        }
    }

    /// The timer fired (or any time): expires deadlines, starts the reconnect after a backoff.
    mutating func tick(now: Nanos) -> [Action] {
        switch state {
        case .connecting(let deadline), .handshaking(let deadline, _):
            var actions: [Action] = []
            var expired: [CallID] = []
            while let first = waiting.first, first.deadline <= now {
                _ = waiting.popFirst()
                expired.append(first.id)
            }
            if !expired.isEmpty { actions.append(.fail(expired, .timeout)) }
            if deadline <= now {
                let millis = timeouts.connect / 1_000_000
                actions += failConnection("could not connect and authenticate within \(millis) ms", now: now)
            }
            return actions
        case .ready:
            guard let head = inFlight.first, head.deadline <= now else { return [] }
            var expired: [CallID] = []
            while let first = inFlight.first, first.deadline <= now {
                _ = inFlight.popFirst()
                expired.append(first.id)
            }
            let millis = timeouts.call / 1_000_000
            return [.fail(expired, .timeout)] + failConnection("no reply within \(millis) ms", now: now)
        case .backingOff(let until):
            guard until <= now else { return [] }
            state = .connecting(deadline: now &+ timeouts.connect)
            return [.connect]
        case .idle, .shutDown:
            return []
        }
    }

    /// Fails everything pending and refuses every later call.
    mutating func shutdown() -> [Action] {
        guard state != .shutDown else { return [] }
        var actions: [Action] = []
        switch state {
        case .connecting, .handshaking, .ready: actions.append(.close)
        default: break
        }
        let ids = inFlight.drain().map(\.id) + waiting.drain().map(\.id)
        if !ids.isEmpty { actions.append(.fail(ids, .shutDown)) }
        if isUp {
            isUp = false
            actions.append(.availability(false))
        }
        state = .shutDown
        return actions
    }

    // MARK: - Transitions

    private mutating func becomeReady() -> [Action] {
        state = .ready
        backoff.reset()
        var actions: [Action] = []
        if !isUp {
            isUp = true
            actions.append(.availability(true))
        }
        let queued = waiting.drain()
        if !queued.isEmpty {
            for call in queued { inFlight.append(call) }
            actions.append(.write(queued.map(\.id)))
        }
        return actions
    }

    private mutating func failConnection(_ reason: String, now: Nanos, waitingError: RedisError? = nil) -> [Action] {
        lastFailure = reason
        var actions: [Action] = [.close]
        let sent = inFlight.drain().map(\.id)
        if !sent.isEmpty { actions.append(.fail(sent, .connectionLost(reason))) }
        let queued = waiting.drain().map(\.id)
        if !queued.isEmpty { actions.append(.fail(queued, waitingError ?? .unavailable(reason))) }
        if isUp {
            isUp = false
            actions.append(.availability(false))
        }
        state = .backingOff(until: now &+ backoff.nextDelay(jitter: nextJitter()))
        return actions
    }

    /// SplitMix64: a uniform number in 0..<1 from the seeded state.
    private mutating func nextJitter() -> Double {
        random &+= 0x9E37_79B9_7F4A_7C15
        var z = random
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
}

/// A FIFO with O(1) amortized removal at the front.
struct CallQueue<Element: Sendable>: Sendable {
    private var items: [Element] = []
    private var head = 0

    var count: Int { items.count - head }
    var isEmpty: Bool { head >= items.count }
    var first: Element? { head < items.count ? items[head] : nil }

    mutating func append(_ element: Element) { items.append(element) }

    mutating func popFirst() -> Element? {
        guard head < items.count else { return nil }
        let element = items[head]
        head += 1
        if head >= 64 && head * 2 >= items.count {
            items.removeSubrange(0..<head)
            head = 0
        }
        return element
    }

    mutating func replaceFirst(_ element: Element) {
        if head < items.count { items[head] = element }
    }

    mutating func drain() -> [Element] {
        let rest = Array(items[head...])
        items.removeAll()
        head = 0
        return rest
    }
}
