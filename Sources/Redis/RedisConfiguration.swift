/// How a `RedisClient` or `RedisSubscriber` connects and how long it waits.
public struct RedisConfiguration: Sendable, Equatable, CustomStringConvertible {
    /// Where, as whom, which database. Its password is redacted in `description`.
    public var url: RedisURL
    /// How TLS is verified when the URL is `rediss://` (ignored for `redis://`).
    public var tls: RedisTLSConfiguration
    /// Redis behind Sentinel: the primary is looked up instead of being the URL's host and port
    /// (the URL still gives the password, the database and whether to use TLS).
    public var sentinel: RedisSentinelConfiguration?
    /// Every call fails with `RedisError.timeout` when its reply has not arrived this long after
    /// the call was made (including any wait for the connection).
    public var timeoutMilliseconds: Int
    /// Connect plus handshake (`HELLO`, `AUTH`, `SELECT`) must finish within this.
    public var connectTimeoutMilliseconds: Int
    /// First reconnect delay after a failure; doubles per consecutive failure up to the maximum.
    public var reconnectInitialDelayMilliseconds: Int
    public var reconnectMaximumDelayMilliseconds: Int
    /// An idle connection is checked with `PING` this often, so a dead or stalled server is
    /// noticed (and reported) without waiting for a call. 0 turns the check off.
    public var healthCheckIntervalMilliseconds: Int
    /// Sent with `HELLO … SETNAME`, shown by `CLIENT LIST`.
    public var clientName: String
    public var parserLimits: RESPParserLimits

    public init(url: RedisURL,
                tls: RedisTLSConfiguration = RedisTLSConfiguration(),
                sentinel: RedisSentinelConfiguration? = nil,
                timeoutMilliseconds: Int = 50,
                connectTimeoutMilliseconds: Int = 1_000,
                reconnectInitialDelayMilliseconds: Int = 50,
                reconnectMaximumDelayMilliseconds: Int = 2_000,
                healthCheckIntervalMilliseconds: Int = 1_000,
                clientName: String = "almanac",
                parserLimits: RESPParserLimits = RESPParserLimits()) {
        self.url = url
        self.tls = tls
        self.sentinel = sentinel
        self.timeoutMilliseconds = max(1, timeoutMilliseconds)
        self.connectTimeoutMilliseconds = max(1, connectTimeoutMilliseconds)
        self.reconnectInitialDelayMilliseconds = max(1, reconnectInitialDelayMilliseconds)
        self.reconnectMaximumDelayMilliseconds = max(self.reconnectInitialDelayMilliseconds, reconnectMaximumDelayMilliseconds)
        self.healthCheckIntervalMilliseconds = max(0, healthCheckIntervalMilliseconds)
        self.clientName = clientName
        self.parserLimits = parserLimits
    }

    public var description: String {
        "\(target) timeout=\(timeoutMilliseconds)ms connectTimeout=\(connectTimeoutMilliseconds)ms"
    }

    /// What the client connects to, for logs: the URL (password masked), or the master name and
    /// the sentinels that know it.
    public var target: String {
        guard let sentinel else { return "\(url)" }
        let scheme = url.tls ? "rediss" : "redis"
        return "\(scheme) primary \(sentinel.masterName) via sentinels \(sentinel.sentinels.map(\.description).joined(separator: ","))"
    }

    /// The commands sent on every new connection, and how many replies they produce:
    /// `HELLO 3 [AUTH user password] SETNAME name`, then `SELECT db` unless db is 0, then with
    /// Sentinel `ROLE` (its reply must say `master`: a failover may have made the server that a
    /// sentinel just named a replica).
    /// RESP3 (Redis ≥ 6) lets one connection carry replies and pub/sub pushes apart.
    var handshake: (bytes: [UInt8], replies: Int) {
        var arguments: [any RedisArgument] = [3]
        if let password = url.password {
            arguments += ["AUTH", url.user ?? Array("default".utf8), password]
        }
        let name = Array(clientName.utf8.filter { $0 > 32 && $0 < 127 })
        if !name.isEmpty { arguments += ["SETNAME", name] }
        var bytes: [UInt8] = []
        RedisCommand("HELLO", arguments).encoded(into: &bytes)
        var replies = 1
        if url.database != 0 {
            RedisCommand("SELECT", url.database).encoded(into: &bytes)
            replies += 1
        }
        if sentinel != nil {
            RedisCommand("ROLE").encoded(into: &bytes)
            replies += 1
        }
        return (bytes, replies)
    }

    var timeouts: RedisConnectionStateMachine.Timeouts {
        .init(call: UInt64(timeoutMilliseconds) * 1_000_000, connect: UInt64(connectTimeoutMilliseconds) * 1_000_000)
    }

    var backoff: ReconnectBackoff {
        ReconnectBackoff(initial: UInt64(reconnectInitialDelayMilliseconds) * 1_000_000,
                         maximum: UInt64(reconnectMaximumDelayMilliseconds) * 1_000_000)
    }
}
