import Dispatch
import Synchronization
import Transport

/// The HTTP/1.1 server (RFC 9112): one event loop per CPU (`EventLoop`: a thread, an epoll set,
/// a listening socket), one state machine per connection, each connection owned by the loop
/// that accepted it (no thread per connection).
///
/// ```swift
/// let server = HTTPServer(configuration: config) { request in router.respond(to: request) }
/// let port = try server.start()
/// server.installSignalHandlers { _ in Task { await server.shutdown(); exit(0) } }
/// ```
public final class HTTPServer: Sendable {
    /// Answers one request. `.ready` is written on the connection's loop at once; `.pending`
    /// runs in a task and its answer is handed back to the connection's loop.
    public typealias Responder = @Sendable (HTTPRequest) -> HTTPResponseFuture

    private let core: ServerCore
    /// Between `start()` and shutdown.
    private let listening = Mutex(false)
    private let boundPort = Atomic<Int>(0)
    private let signalSources = Mutex<[DispatchSourceSignal]>([])

    /// - Parameters:
    ///   - accessLog: called after each response is fully written (on the connection's event
    ///     loop: keep it quick).
    ///   - accessLogFlush: when set, `accessLog` may buffer its lines: this is called on the
    ///     same loop after the work in hand (the current batch of ready sockets, a delivered
    ///     answer), before that loop waits again, whenever `accessLog` ran since the last
    ///     call. One call covers every line logged on that loop until then.
    ///   - errorLog: operational problems (accept failures); stderr when nil.
    public convenience init(configuration: HTTPServerConfiguration,
                responder: @escaping Responder,
                accessLog: (@Sendable (AccessLogEntry) -> Void)? = nil,
                accessLogFlush: (@Sendable () -> Void)? = nil,
                errorLog: (@Sendable (String) -> Void)? = nil) {
        self.init(configuration: configuration, responder: responder, accessLog: accessLog,
                  accessLogFlush: accessLogFlush, errorLog: errorLog, governanceSources: nil)
    }

    /// `governanceSources`: where the loop governance reads the loops' and the machine's time
    /// (nil: the machine's own; tests hand in theirs).
    init(configuration: HTTPServerConfiguration, responder: @escaping Responder,
         accessLog: (@Sendable (AccessLogEntry) -> Void)? = nil, accessLogFlush: (@Sendable () -> Void)? = nil,
         errorLog: (@Sendable (String) -> Void)? = nil, governanceSources: LoopGovernance.Sources?) {
        core = ServerCore(configuration: configuration, responder: responder, accessLog: accessLog,
                          accessLogFlush: accessLogFlush,
                          log: errorLog ?? { message in SystemFacts.writeToStandardError("almanac http: \(message)\n") },
                          governanceSources: governanceSources)
    }

    /// Binds, listens and starts accepting: one listening socket per event loop on the same
    /// port (`SO_REUSEPORT`). Returns the bound port (the kernel's choice when the configured
    /// port is 0: the first loop's socket gets it, the others bind the same).
    ///
    /// Also prepares the process the way a socket server must: SIGPIPE ignored (a peer that
    /// vanishes must not kill us) and RLIMIT_NOFILE raised to its hard limit.
    @discardableResult
    public func start() throws -> Int {
        try listening.withLock { listening in
            guard !listening else { return }
            POSIX.ignoreSIGPIPE()
            POSIX.raiseFileLimit()
            let core = self.core
            let configuration = core.configuration
            if configuration.port != 0 {
                try Listener<Connection>.checkAvailable(host: configuration.host, port: configuration.port)
            }
            var listeners: [Listener<Connection>] = []
            do {
                for owner in core.loops {
                    let port = listeners.first?.port ?? configuration.port
                    listeners.append(try Listener(
                        host: configuration.host, port: port, wantsRemoteAddress: core.accessLog != nil, log: core.log,
                        onAccept: { [weak core, unowned owner] fd, remote in
                            guard let core else { SocketIO.close(fd); return }
                            core.accepted(fd: fd, remoteAddress: remote, on: owner)
                        }))
                }
            } catch {
                for listener in listeners { SocketIO.close(listener.fd) }
                throw error
            }
            for (owner, listener) in zip(core.loops, listeners) {
                owner.loop.execute {
                    owner.listener = listener
                    listener.start(on: owner.loop)
                }
            }
            core.governance?.start()
            boundPort.store(listeners.first?.port ?? 0, ordering: .releasing)
            listening = true
        }
        return port
    }

    /// The bound port once `start()` returned, else 0.
    public var port: Int { boundPort.load(ordering: .acquiring) }

    /// True once shutdown began: `/readyz` answers 503 from then on.
    public var isDraining: Bool { core.isDraining }

    /// Connections currently open, not counting refused ones still getting their 503
    /// (for `/metrics`).
    public var openConnections: Int { core.openCount.load(ordering: .relaxed) }

    /// Every TCP connection accepted since start, refused ones included.
    public var totalAcceptedConnections: Int { acceptedPerLoop.reduce(0, +) }

    /// Event loops that take new connections now (`LoopPlacement.adaptive`: those
    /// `LoopGovernor` keeps active; otherwise every loop), for `/metrics`.
    public var activeEventLoops: Int { core.governance?.active.load(ordering: .relaxed) ?? core.loops.count }

    /// Event loops the server runs (one per online processor unless configured).
    public var eventLoopCount: Int { core.loops.count }

    /// Connections closed with a complete response (`Connection: close`) so that the client's
    /// reconnection could be placed on a less busy loop, since start (for `/metrics`).
    public var rebalancedConnections: Int { core.loops.reduce(0) { $0 + $1.shedCount.load(ordering: .relaxed) } }

    /// Makes loop `index` close its next `count` keep-alive connections with their next
    /// response, as `LoopGovernor` does to even the loops out (tests).
    func requestRebalancing(loop index: Int, count: Int) {
        core.loops[index].shedQuota.store(count, ordering: .relaxed)
    }

    /// Connections the loops are still to close to even out (tests).
    var pendingRebalancing: Int { core.loops.reduce(0) { $0 + $1.shedQuota.load(ordering: .relaxed) } }

    /// Connections living on each event loop now (tests: where `LoopPlacement` put them).
    var openConnectionsPerLoop: [Int] { core.loops.map { $0.openConnections.load(ordering: .relaxed) } }

    /// Connections accepted by each event loop's listening socket (tests: several loops serve).
    var acceptedPerLoop: [Int] { core.loops.map { $0.acceptedCount.load(ordering: .relaxed) } }

    /// Connections refused with 503 because `maxConnections` were open and none could be
    /// reclaimed.
    public var rejectedConnections: Int { core.rejectedCount.load(ordering: .relaxed) }

    /// Connections that could be reclaimed right now (tests wait for a server to have seen
    /// their clients' bytes). Visits every event loop synchronously: tests only.
    var reclaimableConnections: Int {
        core.loops.reduce(0) { total, owner in total + owner.loop.sync { owner.reclaimables.countReclaimableNow() } }
    }

    /// Connections closed to make room for new ones at `maxConnections`, by the state they
    /// were in (for `/metrics`).
    public var reclaimedConnections: ReclaimedConnections {
        ReclaimedConnections(idle: core.reclaimedIdleCount.load(ordering: .relaxed),
                             silent: core.reclaimedSilentCount.load(ordering: .relaxed))
    }

    /// Graceful shutdown: stops accepting (the listening socket is closed, so new connections
    /// are refused), marks the server draining, closes idle connections at once, lets
    /// in-flight requests finish (answered with `Connection: close`), and returns when every
    /// connection is closed or `shutdownGraceSeconds` passed, after which the rest are cut.
    /// Safe to call more than once; every call returns when the server is fully closed.
    public func shutdown() async {
        let core = self.core
        if core.draining.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
            listening.withLock { $0 = false }
            core.governance?.stop()
            for owner in core.loops {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    owner.loop.execute {
                        owner.listener?.stop()
                        owner.listener = nil
                        continuation.resume()
                    }
                }
            }
            for connection in core.snapshot() {
                connection.owner.loop.execute { connection.shutdownRequested() }
            }
            let grace = DispatchTimeInterval.nanoseconds(Int(max(0, core.configuration.shutdownGraceSeconds) * 1e9))
            DispatchQueue.global().asyncAfter(deadline: .now() + grace) {
                for connection in core.snapshot() {
                    connection.owner.loop.execute { connection.forceClose() }
                }
            }
        }
        await core.waitUntilAllClosed()
    }

    /// Calls `onSignal` on SIGTERM or SIGINT (or `signals`), delivered through Dispatch
    /// rather than a C handler, so the callback may do anything. The signals' default
    /// actions are disabled first (`SIG_IGN`), as Dispatch signal sources require.
    public func installSignalHandlers(signals: [Int32] = [ProcessSignals.terminate, ProcessSignals.interrupt],
                                      onSignal: @escaping @Sendable (Int32) -> Void) {
        signalSources.withLock { $0.append(contentsOf: ProcessSignals.observe(signals, onSignal: onSignal)) }
    }

    /// Serves until SIGTERM or SIGINT, then shuts down gracefully and returns (the caller
    /// exits 0). `start()` must have been called.
    public func runUntilSignalled() async {
        let fired = Atomic<Bool>(false)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            installSignalHandlers { _ in
                if fired.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged {
                    continuation.resume()
                }
            }
        }
        await shutdown()
    }
}
