import Synchronization
import Transport

/// What every connection of one server shares: settings, the responder, counters and the
/// registry that graceful shutdown walks.
final class ServerCore: Sendable {
    let configuration: HTTPServerConfiguration
    let responder: HTTPServer.Responder
    let accessLog: (@Sendable (AccessLogEntry) -> Void)?
    let accessLogFlush: (@Sendable () -> Void)?
    let log: @Sendable (String) -> Void
    let timeouts: ConnectionStateMachine.Timeouts
    let parserLimits: RequestParserLimits
    /// The event loops; every connection lives on one of them.
    let loops: [ConnectionLoop]
    /// With `LoopPlacement.adaptive` and several loops: which loops take new connections.
    let governance: LoopGovernance?

    let openCount = Atomic<Int>(0)
    let rejectedCount = Atomic<Int>(0)
    /// Rejected connections still writing their 503 or lingering; bounded so a flood past
    /// `maxConnections` cannot pile up descriptors.
    let rejectingCount = Atomic<Int>(0)
    let draining = Atomic<Bool>(false)
    /// Connections closed to make room at `maxConnections`, by the state they were in.
    let reclaimedIdleCount = Atomic<Int>(0)
    let reclaimedSilentCount = Atomic<Int>(0)
    /// The "reusing connections" warning, at most once per 10 s.
    let reclaimWarning = Mutex(ReclaimWarningThrottle(interval: 10_000_000_000))

    private struct Registry {
        var connections: [Int: Connection] = [:]
        var nextID = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let registry = Mutex(Registry())

    init(configuration: HTTPServerConfiguration, responder: @escaping HTTPServer.Responder,
         accessLog: (@Sendable (AccessLogEntry) -> Void)?, accessLogFlush: (@Sendable () -> Void)? = nil,
         log: @escaping @Sendable (String) -> Void, governanceSources: LoopGovernance.Sources? = nil) {
        self.configuration = configuration
        self.responder = responder
        self.accessLog = accessLog
        self.accessLogFlush = accessLogFlush
        self.log = log
        self.timeouts = ConnectionStateMachine.Timeouts(configuration)
        self.parserLimits = RequestParserLimits(maxRequestLineBytes: configuration.maxRequestLineBytes,
                                                maxHeaderBytes: configuration.maxHeaderBytes,
                                                maxHeaderFields: configuration.maxHeaderFields,
                                                maxBodyBytes: configuration.maxBodyBytes)
        let count = configuration.connectionQueueCount > 0
            ? configuration.connectionQueueCount
            : SystemFacts.onlineProcessorCount
        self.loops = (0..<count).map { ConnectionLoop(index: $0, count: count) }
        self.governance = configuration.loopPlacement == .adaptive && count > 1 ? LoopGovernance(loops: loops, sources: governanceSources) : nil
    }

    deinit {
        governance?.stop()
        for owner in loops { owner.loop.stop() }
    }

    var isDraining: Bool { draining.load(ordering: .acquiring) }

    /// Runs on `current`'s loop for every socket its listener accepted. Below the limit the
    /// connection lives on that loop, started at once. At the limit, a loop with a reclaimable
    /// connection is reserved and the newcomer is admitted *there* (the one path on which a
    /// connection changes loops), started only once that loop has closed its oldest
    /// reclaimable connection (`makeRoom`); this thread never waits for another loop. With
    /// nothing reclaimable anywhere, the newcomer gets the 503.
    func accepted(fd: Int32, remoteAddress: String, on current: ConnectionLoop) {
        current.acceptedCount.add(1, ordering: .relaxed)
        var rejected = false
        var owner = current
        var reclaimLoop: ConnectionLoop?
        if openCount.load(ordering: .relaxed) >= configuration.maxConnections, let reserved = reserveReclaim() {
            // Admitted ahead of the reclaim: the count is one over until the victim's close.
            openCount.add(1, ordering: .relaxed)
            owner = reserved
            reclaimLoop = reserved
        } else if openCount.load(ordering: .relaxed) >= configuration.maxConnections {
            rejectedCount.add(1, ordering: .relaxed)
            // A refused client still deserves an answer, but not at any price.
            guard rejectingCount.load(ordering: .relaxed) < ServerCore.maxRejecting else {
                SocketIO.close(fd)
                return
            }
            rejectingCount.add(1, ordering: .relaxed)
            rejected = true
        } else {
            openCount.add(1, ordering: .relaxed)
            if let governance {
                let active = min(loops.count, max(1, governance.active.load(ordering: .relaxed)))
                owner = loops[LoopPlacement.leastLoaded(active: active) { loops[$0].openConnections.load(ordering: .relaxed) }]
            }
        }
        if !rejected { owner.openConnections.add(1, ordering: .relaxed) }
        let connection = registry.withLock { registry in
            registry.nextID += 1
            let connection = Connection(id: registry.nextID, fd: fd, owner: owner, core: self,
                                        remoteAddress: remoteAddress, isRejected: rejected,
                                        now: Connection.now())
            registry.connections[registry.nextID] = connection
            return connection
        }
        if let reclaimLoop {
            if reclaimLoop === current {
                makeRoom(for: connection, on: reclaimLoop, attempt: 1)
            } else {
                reclaimLoop.loop.execute { self.makeRoom(for: connection, on: reclaimLoop, attempt: 1) }
            }
        } else if owner === current {
            connection.start()
        } else {
            // Placed on another loop (`LoopPlacement.adaptive`): it starts there, like a
            // connection admitted ahead of a reclaim; shutdown reaches it through the same loop.
            owner.loop.execute { connection.start() }
        }
    }

    static let maxRejecting = 256

    /// Called once per connection, after its descriptor is closed.
    func connectionClosed(_ connection: Connection) {
        if connection.isRejected {
            rejectingCount.subtract(1, ordering: .relaxed)
        } else {
            openCount.subtract(1, ordering: .relaxed)
            connection.owner.openConnections.subtract(1, ordering: .relaxed)
        }
        let waiters: [CheckedContinuation<Void, Never>] = registry.withLock { registry in
            registry.connections[connection.id] = nil
            guard registry.connections.isEmpty else { return [] }
            defer { registry.waiters = [] }
            return registry.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Every open connection (a snapshot).
    func snapshot() -> [Connection] {
        registry.withLock { Array($0.connections.values) }
    }

    /// Returns once no connection is open.
    func waitUntilAllClosed() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = registry.withLock { registry in
                if registry.connections.isEmpty { return true }
                registry.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}
