import Synchronization

/// The sockets of Sentinel discovery: one `RedisClient` per sentinel for
/// `SENTINEL get-master-addr-by-name`, and one `RedisSubscriber` per sentinel on
/// `+switch-master` (every sentinel, so losing one of them loses no announcement; the
/// duplicates are dropped by `RedisSentinelDiscovery`). The decisions are
/// `RedisSentinelDiscovery`'s; this type only asks and listens.
///
/// Sentinels are spoken to in plain RESP without a password, with the client's connect timeout
/// as the bound of one question (a lookup runs on the connection path).
final class RedisSentinelLocator: Sendable {
    private let shared: SharedDiscovery
    private let clients: [RedisEndpoint: RedisClient]
    private let subscribers: [RedisSubscriber]
    private let masterName: String

    /// `onSwitch` runs (on a subscriber's queue) with the new primary each time a sentinel
    /// announces a failover of this master.
    init(configuration: RedisConfiguration, sentinel: RedisSentinelConfiguration,
         onSwitch: @escaping @Sendable (RedisEndpoint) -> Void) {
        let shared = SharedDiscovery(RedisSentinelDiscovery(configuration: sentinel))
        self.shared = shared
        masterName = sentinel.masterName
        var clients: [RedisEndpoint: RedisClient] = [:]
        var subscribers: [RedisSubscriber] = []
        for endpoint in sentinel.sentinels where clients[endpoint] == nil {
            let settings = RedisConfiguration(
                url: RedisURL(host: endpoint.host, port: endpoint.port),
                timeoutMilliseconds: configuration.connectTimeoutMilliseconds,
                connectTimeoutMilliseconds: configuration.connectTimeoutMilliseconds,
                reconnectInitialDelayMilliseconds: configuration.reconnectInitialDelayMilliseconds,
                reconnectMaximumDelayMilliseconds: configuration.reconnectMaximumDelayMilliseconds,
                healthCheckIntervalMilliseconds: configuration.healthCheckIntervalMilliseconds,
                clientName: configuration.clientName + "-sentinel",
                parserLimits: configuration.parserLimits)
            clients[endpoint] = RedisClient(configuration: settings)
            let subscriber = RedisSubscriber(configuration: settings, onMessage: { message in
                if let primary = shared.state.withLock({ $0.switchMaster(message.payload) }) { onSwitch(primary) }
            })
            subscribers.append(subscriber)
            Task { try? await subscriber.subscribe(["+switch-master"]) }
        }
        self.clients = clients
        self.subscribers = subscribers
    }

    enum Lookup: Sendable {
        case primary(RedisEndpoint)
        /// Why no sentinel named one (each sentinel's reason).
        case failed(String)
    }

    /// The primary to connect to: the one known, or the first a sentinel names.
    func primary() async -> Lookup {
        var step = shared.state.withLock { $0.lookup() }
        while true {
            switch step {
            case .use(let primary):
                return .primary(primary)
            case .failed(let reason):
                return .failed(reason)
            case .ask(let index):
                let sentinel = shared.state.withLock { $0.sentinels.indices.contains(index) ? $0.sentinels[index] : nil }
                guard let sentinel, let client = clients[sentinel] else {
                    return .failed("sentinel list changed during a lookup")
                }
                do {
                    let reply = try await client.send(RedisCommand("SENTINEL", "get-master-addr-by-name", masterName))
                    step = shared.state.withLock { $0.answered(index, reply: reply) }
                } catch {
                    step = shared.state.withLock { $0.unreachable(index, reason: error.description) }
                }
            }
        }
    }

    /// The primary failed us; the next `primary()` asks the sentinels.
    func forgetPrimary() {
        shared.state.withLock { $0.forgetPrimary() }
    }

    func shutdown() async {
        for subscriber in subscribers { await subscriber.shutdown() }
        for client in clients.values { await client.shutdown() }
    }
}

/// The discovery state, shared by the locator and its subscribers' message handlers.
private final class SharedDiscovery: Sendable {
    let state: Mutex<RedisSentinelDiscovery>
    init(_ discovery: RedisSentinelDiscovery) { state = Mutex(discovery) }
}
