import Dispatch
import Synchronization
import Transport

/// The HTTP/1.1 server (RFC 9112): a listener plus one state machine per connection, each
/// connection owned by one of a few shared serial Dispatch queues (no thread per connection).
///
/// ```swift
/// let server = HTTPServer(configuration: config) { request in router.respond(to: request) }
/// let port = try server.start()
/// server.installSignalHandlers { _ in Task { await server.shutdown(); exit(0) } }
/// ```
public final class HTTPServer: Sendable {
    /// Answers one request. `.ready` is written on the connection's queue at once; `.pending`
    /// runs in a task and its answer is handed back to the connection's queue.
    public typealias Responder = @Sendable (HTTPRequest) -> HTTPResponseFuture

    private let core: ServerCore
    private let listener = Mutex<Listener?>(nil)
    private let boundPort = Atomic<Int>(0)
    private let signalSources = Mutex<[DispatchSourceSignal]>([])

    /// - Parameters:
    ///   - accessLog: called after each response is fully written (on a connection queue:
    ///     keep it quick).
    ///   - accessLogFlush: when set, `accessLog` may buffer its lines: this is called on the
    ///     same connection queue after the work in hand (the current batch of ready sockets, a
    ///     delivered answer), before that queue goes idle, whenever `accessLog` ran since the
    ///     last call. One call covers every line logged on that queue until then.
    ///   - errorLog: operational problems (accept failures); stderr when nil.
    public init(configuration: HTTPServerConfiguration,
                responder: @escaping Responder,
                accessLog: (@Sendable (AccessLogEntry) -> Void)? = nil,
                accessLogFlush: (@Sendable () -> Void)? = nil,
                errorLog: (@Sendable (String) -> Void)? = nil) {
        core = ServerCore(configuration: configuration, responder: responder, accessLog: accessLog,
                          accessLogFlush: accessLogFlush,
                          log: errorLog ?? { message in SystemFacts.writeToStandardError("almanac http: \(message)\n") })
    }

    /// Binds, listens and starts accepting. Returns the bound port (the kernel's choice when
    /// the configured port is 0).
    ///
    /// Also prepares the process the way a socket server must: SIGPIPE ignored (a peer that
    /// vanishes must not kill us) and RLIMIT_NOFILE raised to its hard limit.
    @discardableResult
    public func start() throws -> Int {
        if let port = listener.withLock({ $0?.port }) { return port }
        POSIX.ignoreSIGPIPE()
        POSIX.raiseFileLimit()
        let core = self.core
        let listener = try Listener(
            host: core.configuration.host, port: core.configuration.port, queue: core.acceptQueue,
            wantsRemoteAddress: core.accessLog != nil, log: core.log,
            onAccept: { fd, remote in core.accepted(fd: fd, remoteAddress: remote) })
        self.listener.withLock { $0 = listener }
        boundPort.store(listener.port, ordering: .releasing)
        core.acceptQueue.async { listener.start() }
        return listener.port
    }

    /// The bound port once `start()` returned, else 0.
    public var port: Int { boundPort.load(ordering: .acquiring) }

    /// True once shutdown began: `/readyz` answers 503 from then on.
    public var isDraining: Bool { core.isDraining }

    /// Connections currently open, not counting refused ones still getting their 503
    /// (for `/metrics`).
    public var openConnections: Int { core.openCount.load(ordering: .relaxed) }

    /// Every TCP connection accepted since start, refused ones included.
    public var totalAcceptedConnections: Int { core.acceptedCount.load(ordering: .relaxed) }

    /// Connections refused with 503 because `maxConnections` were open and none could be
    /// reclaimed.
    public var rejectedConnections: Int { core.rejectedCount.load(ordering: .relaxed) }

    /// Connections that could be reclaimed right now (tests wait for a server to have seen
    /// their clients' bytes). Visits every connection queue synchronously: tests only.
    var reclaimableConnections: Int {
        core.queues.reduce(0) { total, owner in total + owner.queue.sync { owner.reclaimables.countReclaimableNow() } }
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
            let listener = self.listener.withLock { listener in
                defer { listener = nil }
                return listener
            }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                core.acceptQueue.async {
                    listener?.stop()
                    continuation.resume()
                }
            }
            for connection in core.snapshot() {
                connection.owner.queue.async { connection.shutdownRequested() }
            }
            let grace = DispatchTimeInterval.nanoseconds(Int(max(0, core.configuration.shutdownGraceSeconds) * 1e9))
            core.acceptQueue.asyncAfter(deadline: .now() + grace) {
                for connection in core.snapshot() {
                    connection.owner.queue.async { connection.forceClose() }
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
