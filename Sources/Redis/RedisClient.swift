/// A non-blocking Redis client: one pipelined connection on the project's socket poller.
///
/// - Calls from any task are written in the order they are made and may overlap freely:
///   everything submitted while the queue is busy leaves in one `send`, and replies are matched
///   to calls in order (pipelining).
/// - Every call ends within `timeoutMilliseconds` — with its reply, or a `RedisError`. Task
///   cancellation does not cut a call short: a written command cannot be taken back, and the
///   timeout already bounds the wait.
/// - The connection opens on first use (or `start()`), authenticates and selects the database
///   from the URL (`HELLO 3 AUTH user password SETNAME …`, `SELECT db`), and after any failure
///   reconnects by itself with exponential backoff; calls made while it is down fail at once with
///   `.unavailable`. An idle connection is checked with `PING` every `healthCheckIntervalMilliseconds`.
/// - The password never appears in a description, a log line or an error.
///
/// Pub/sub uses its own connection: `RedisSubscriber`.
public final class RedisClient: Sendable {
    public let configuration: RedisConfiguration
    let core: RedisClientCore

    /// `onAvailabilityChange` is called (on the client's queue) with `true` after every
    /// successful handshake and `false` when a ready connection is lost. `onConnectionFailure`
    /// gets the reason connecting failed (a refused certificate, no sentinel knowing the
    /// primary, …), once per distinct reason until the next success; never the password.
    public init(configuration: RedisConfiguration, onAvailabilityChange: (@Sendable (Bool) -> Void)? = nil,
                onConnectionFailure: (@Sendable (String) -> Void)? = nil) {
        self.configuration = configuration
        core = RedisClientCore(configuration: configuration, label: "almanac.redis")
        core.queue.sync {
            core.availabilityHandler = onAvailabilityChange
            core.failureHandler = onConnectionFailure
        }
    }

    deinit {
        core.shutdown()
    }

    /// Connects now instead of at the first call.
    public func start() {
        core.start()
    }

    /// Fails every pending call with `.shutDown`, closes the connection, refuses later calls.
    public func shutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            core.shutdown { continuation.resume() }
        }
    }

    /// True while a connection is ready (handshake done, not lost since).
    public var isAvailable: Bool { core.isUp }

    /// `host:port` of the server in use while a connection is ready (with Sentinel: the primary
    /// found), nil while down.
    public var serverAddress: String? { core.serverAddress }

    // MARK: - Raw calls

    /// Sends one command; error replies are thrown as `RedisError.server`.
    public func send(_ command: RedisCommand) async throws(RedisError) -> RESPValue {
        let values = try await pipeline([command]).get()
        guard let value = values.first else { throw .unexpectedReply("no reply") }
        if let error = value.errorBytes { throw RedisError.server(error, masking: configuration.url.password) }
        return value
    }

    /// Sends `commands` back to back; the result holds one value per command, error replies
    /// included as `.error` values (a failing command does not fail the others). The whole
    /// pipeline shares one deadline.
    public func pipeline(_ commands: [RedisCommand]) async -> Result<[RESPValue], RedisError> {
        guard !commands.isEmpty else { return .success([]) }
        return await withCheckedContinuation { continuation in
            core.submit(commands) { continuation.resume(returning: $0) }
        }
    }
}
