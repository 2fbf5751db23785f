import Dispatch
import Transport
import Synchronization

/// The socket side of a Redis client: one connection at a time on a `SocketReadinessPoller`, driven by a
/// `RedisConnectionStateMachine`. Everything runs on `queue`; public entry points hop onto it.
/// `RedisClient` (calls) and `RedisSubscriber` (pub/sub) are thin layers over it.
final class RedisClientCore: RedisConnectionDelegate, @unchecked Sendable {
    typealias Completion = @Sendable (Result<[RESPValue], RedisError>) -> Void
    typealias Nanos = UInt64

    let configuration: RedisConfiguration
    let queue: DispatchQueue
    private let poller: SocketReadinessPoller<RedisConnection>
    private var machine: RedisConnectionStateMachine
    private var connection: RedisConnection?
    /// Bumped on every connect attempt and close: a resolution that finishes late is ignored.
    private var generation: UInt64 = 0
    private var nextID: UInt64 = 0
    private var pending: [UInt64: Pending] = [:]
    private var timer: DispatchSourceTimer?
    private var armedDeadline: Nanos?
    private var healthTimer: DispatchSourceTimer?
    private var repliesSinceHealthCheck = 0
    /// The TLS context for `rediss://` (made once), or why it cannot be made; nil for `redis://`.
    private let tlsContext: Result<RedisTLSContext, RedisTLSFailure>?
    /// With Sentinel: who names the primary (nil: the URL's host is the server).
    private var locator: RedisSentinelLocator?
    /// The primary the current connection (attempt) goes to, with Sentinel.
    private var targetPrimary: RedisEndpoint?
    /// `host:port` of the server while a connection is ready, readable from any thread.
    private let connectedAddress = Mutex<String?>(nil)
    /// The last failure reason handed to `failureHandler` (reset once connected).
    private var reportedFailure: String?

    /// Out-of-band RESP3 pushes (pub/sub messages and confirmations), on `queue`.
    var pushHandler: ((RESPValue) -> Void)?
    /// Runs on `queue` after every successful handshake, before queued calls are written.
    var readyHandler: (() -> Void)?
    /// Availability changes, on `queue`.
    var availabilityHandler: (@Sendable (Bool) -> Void)?
    /// Why connecting failed, on `queue`: once per distinct reason until the next success, so a
    /// refused certificate or an unknown master name is reported, not repeated every backoff.
    var failureHandler: (@Sendable (String) -> Void)?

    private struct Pending {
        var bytes: [UInt8]
        var values: [RESPValue] = []
        var completion: Completion
    }

    init(configuration: RedisConfiguration, label: String) {
        self.configuration = configuration
        tlsContext = configuration.url.tls ? RedisTLSContext.make(configuration.tls) : nil
        queue = DispatchQueue(label: label)
        poller = SocketReadinessPoller<RedisConnection>(queue: queue)
        // Any value will do: the jitter only keeps replicas from reconnecting in lockstep.
        let seed = DispatchTime.now().uptimeNanoseconds ^ UInt64(UInt(bitPattern: ObjectIdentifier(poller).hashValue))
        machine = RedisConnectionStateMachine(timeouts: configuration.timeouts, backoff: configuration.backoff, seed: seed)
        POSIX.ignoreSIGPIPE()
        if let sentinel = configuration.sentinel {
            locator = RedisSentinelLocator(configuration: configuration, sentinel: sentinel) { [weak self] primary in
                guard let self else { return }
                self.queue.async { self.primarySwitched(to: primary) }
            }
        }
    }

    static func now() -> Nanos { DispatchTime.now().uptimeNanoseconds }

    // MARK: - Entry points (any thread)

    /// Sends `commands` as one pipeline; `completion` gets one value per command, or an error.
    func submit(_ commands: [RedisCommand], completion: @escaping Completion) {
        var encoded: [UInt8] = []
        for command in commands { command.encoded(into: &encoded) }
        let bytes = encoded
        let count = commands.count
        queue.async { [self] in
            nextID &+= 1
            let id = nextID
            pending[id] = Pending(bytes: bytes, completion: completion)
            run(machine.submit(id, replies: count, now: Self.now()))
        }
    }

    func start() {
        queue.async { [self] in
            startTimers()
            run(machine.start(now: Self.now()))
        }
    }

    func shutdown(then: (@Sendable () -> Void)? = nil) {
        queue.async { [self] in
            run(machine.shutdown())
            timer?.cancel()
            timer = nil
            healthTimer?.cancel()
            healthTimer = nil
            guard let locator else {
                then?()
                return
            }
            self.locator = nil
            Task {
                await locator.shutdown()
                then?()
            }
        }
    }

    /// The server in use while connected (`host:port`); nil while down.
    var serverAddress: String? { connectedAddress.withLock { $0 } }

    /// Writes `command` on the current connection without expecting a reply (pub/sub
    /// subscriptions, whose confirmations arrive as pushes). On `queue`. False when not connected.
    @discardableResult
    func writeUntracked(_ command: RedisCommand) -> Bool {
        guard let connection, machine.state == .ready else { return false }
        var bytes: [UInt8] = []
        command.encoded(into: &bytes)
        connection.send(bytes)
        return true
    }

    /// True while a connection is ready; readable from any thread (also from the handlers).
    var isUp: Bool { up.load(ordering: .relaxed) }
    private let up = Atomic<Bool>(false)

    /// The state machine's last failure reason (on `queue`).
    var lastFailure: String { machine.lastFailure }

    // MARK: - Actions

    private func run(_ actions: [RedisConnectionStateMachine.Action], value: RESPValue? = nil) {
        for action in actions {
            switch action {
            case .connect:
                connect()
            case .writeHandshake:
                connection?.send(configuration.handshake.bytes)
            case .write(let ids):
                for id in ids {
                    guard let bytes = pending[id]?.bytes else { continue }
                    pending[id]?.bytes = []
                    connection?.send(bytes)
                }
            case .reply(let id, let last):
                guard let value else { continue }
                pending[id]?.values.append(value)
                if last, let done = pending.removeValue(forKey: id) {
                    done.completion(.success(done.values))
                }
            case .fail(let ids, let error):
                for id in ids {
                    pending.removeValue(forKey: id)?.completion(.failure(error))
                }
            case .close:
                generation &+= 1
                connection?.close()
                connection = nil
                // The primary failed us (or we leave it): ask the sentinels next time.
                locator?.forgetPrimary()
                targetPrimary = nil
            case .availability(let isUp):
                up.store(isUp, ordering: .relaxed)
                let address = isUp ? connection?.address.text : nil
                connectedAddress.withLock { $0 = address }
                if isUp {
                    reportedFailure = nil
                    readyHandler?()
                }
                availabilityHandler?(isUp)
            }
        }
        if !machine.isUp, machine.lastFailure != reportedFailure, case .backingOff = machine.state {
            reportedFailure = machine.lastFailure
            failureHandler?(machine.lastFailure)
        }
        armTimer()
    }

    /// A sentinel announced a new primary: move to it now unless already there. Every sentinel
    /// announces the same switch: the first moves the connection, and the others (arriving
    /// while it is being made, when the primary is looked up again) change nothing, since a
    /// second reconnect would fail the calls of the first.
    private func primarySwitched(to primary: RedisEndpoint) {
        guard primary != targetPrimary else { return }
        run(machine.reconnectNow("the primary moved to \(primary)", now: Self.now()))
        targetPrimary = primary
    }

    private func connect() {
        generation &+= 1
        let attempt = generation
        startTimers()
        guard let locator else {
            resolveAndConnect(host: configuration.url.host, port: configuration.url.port, attempt: attempt)
            return
        }
        Task { [weak self] in
            let found = await locator.primary()
            guard let self else { return }
            self.queue.async {
                guard attempt == self.generation else { return }
                switch found {
                case .failed(let reason):
                    self.run(self.machine.connectionFailed(reason, now: Self.now()))
                case .primary(let primary):
                    self.targetPrimary = primary
                    self.resolveAndConnect(host: primary.host, port: primary.port, attempt: attempt)
                }
            }
        }
    }

    private func resolveAndConnect(host: String, port: Int, attempt: UInt64) {
        DispatchQueue.global().async { [weak self] in
            let resolved = RedisSocket.resolve(host: host, port: port)
            guard let self else { return }
            self.queue.async {
                guard attempt == self.generation else { return }
                switch resolved {
                case .failed(let reason):
                    self.run(self.machine.connectionFailed(reason, now: Self.now()))
                case .addresses(let addresses):
                    self.connect(to: addresses[...], attempt: attempt, firstFailure: nil)
                }
            }
        }
    }

    /// Tries `addresses` in turn (e.g. `::1` then `127.0.0.1` for `localhost`).
    private func connect(to addresses: ArraySlice<RedisAddress>, attempt: UInt64, firstFailure: String?) {
        guard attempt == generation else { return }
        guard let address = addresses.first else {
            run(machine.connectionFailed(firstFailure ?? "no address", now: Self.now()))
            return
        }
        switch RedisSocket.startConnect(address) {
        case .failed(let reason):
            connect(to: addresses.dropFirst(), attempt: attempt, firstFailure: firstFailure ?? reason)
        case .connected(let fd), .inProgress(let fd):
            var session: RedisTLSSession?
            switch tlsSession(fd: fd) {
            case .success(let made):
                session = made
            case .failure(let failure):
                RedisSocket.closeDescriptor(fd)
                run(machine.connectionFailed(failure.description, now: Self.now()))
                return
            }
            remainingAddresses = addresses.dropFirst()
            firstConnectFailure = firstFailure
            let connection = RedisConnection(fd: fd, address: address, connecting: true, poller: poller,
                                             limits: configuration.parserLimits, tls: session, delegate: self)
            self.connection = connection
        }
    }

    /// A TLS session for a new socket (nil for `redis://`), checked against
    /// `cache.redis.tls.serverName` or else the host connected to.
    private func tlsSession(fd: Int32) -> Result<RedisTLSSession?, RedisTLSFailure> {
        guard let tlsContext else { return .success(nil) }
        switch tlsContext {
        case .failure(let failure):
            return .failure(failure)
        case .success(let context):
            let name = configuration.tls.serverName ?? targetPrimary?.host ?? configuration.url.host
            return RedisTLSSession.make(context: context, fd: fd, name: name).map { $0 }
        }
    }

    private var remainingAddresses: ArraySlice<RedisAddress> = []
    private var firstConnectFailure: String?

    // MARK: - RedisConnectionDelegate

    func connectionEstablished(_ connection: RedisConnection, error: String?) {
        guard connection === self.connection else { return }
        if let error {
            self.connection = nil
            connection.close()
            connect(to: remainingAddresses, attempt: generation, firstFailure: firstConnectFailure ?? error)
            return
        }
        remainingAddresses = []
        run(machine.connected(handshakeReplies: configuration.handshake.replies, now: Self.now()))
    }

    func connection(_ connection: RedisConnection, received value: RESPValue) {
        guard connection === self.connection else { return }
        if case .push = value {
            pushHandler?(value)
            return
        }
        repliesSinceHealthCheck &+= 1
        var error: RedisError?
        if let text = value.errorBytes {
            error = RedisError.server(text, masking: configuration.url.password)
        } else if locator != nil, case .handshaking(_, 1) = machine.state, !RedisSentinelDiscovery.isPrimary(role: value) {
            // The handshake's last reply is ROLE's: a server that is not the primary is never used.
            error = .server("ROLE: \(connection.address.text) is not the primary")
        }
        run(machine.received(error: error, now: Self.now()), value: value)
        if locator != nil, machine.state == .ready, let text = value.errorBytes, RedisSentinelDiscovery.isReadOnly(text) {
            // A write reached a replica (the primary changed under us): find the primary again.
            run(machine.connectionFailed("\(connection.address.text) is a replica now (READONLY)", now: Self.now()))
        }
    }

    func connection(_ connection: RedisConnection, failed reason: String) {
        guard connection === self.connection else { return }
        run(machine.connectionFailed(reason, now: Self.now()))
    }

    // MARK: - Timers

    private func startTimers() {
        if timer == nil {
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.setEventHandler { [weak self] in
                guard let self else { return }
                self.armedDeadline = nil
                self.run(self.machine.tick(now: Self.now()))
            }
            timer.schedule(deadline: .distantFuture)
            timer.resume()
            self.timer = timer
        }
        let interval = configuration.healthCheckIntervalMilliseconds
        if healthTimer == nil && interval > 0 {
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.setEventHandler { [weak self] in self?.healthCheck() }
            timer.schedule(deadline: .now() + .milliseconds(interval), repeating: .milliseconds(interval),
                           leeway: .milliseconds(max(1, interval / 10)))
            timer.resume()
            healthTimer = timer
        }
    }

    /// Moves the timer earlier when the machine's next deadline is earlier than the armed one;
    /// a later deadline is left to the timer firing, re-checking and re-arming.
    private func armTimer() {
        guard let timer, let deadline = machine.nextDeadline else { return }
        if let armed = armedDeadline, armed <= deadline { return }
        armedDeadline = deadline
        timer.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline), leeway: .microseconds(500))
    }

    /// An idle, ready connection gets a PING: its timeout fails and reconnects a dead or stalled
    /// connection even when no one calls.
    private func healthCheck() {
        defer { repliesSinceHealthCheck = 0 }
        guard machine.state == .ready, machine.pendingCount == 0, repliesSinceHealthCheck == 0 else { return }
        submit([RedisCommand("PING")]) { _ in }
    }
}
