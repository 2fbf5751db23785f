import Cache
import Synchronization

/// The cache's shared layer on Redis: `SharedCacheBackend` over a `RedisClient`.
///
/// - `store` is `SET key value PX ttl`; `acquireLock` is `SET key token NX PX ttl`.
/// - `releaseLock` runs `RedisScript.releaseIfOwnerSource` (compare-and-delete in one
///   atomic step) by SHA-1, loading it on first use and again after a Redis restart.
/// - `deleteKeys(withPrefix:)` walks `SCAN MATCH <escaped prefix>* COUNT 500` and deletes each
///   batch with `DEL`: the server does O(500) work per step, never one long `KEYS`.
/// - `subscribe` uses one `RedisSubscriber` (its own connection, opened on first use); every
///   time that connection becomes ready — the first time included — is reported as a gap.
/// - Any `RedisError` becomes `SharedCacheUnavailable` with the client's (password-free) reason.
public final class RedisSharedCacheBackend: SharedCacheBackend {
    public let client: RedisClient
    private let release: ScriptCache
    private let subscriptions = Subscriptions()

    public init(client: RedisClient) {
        self.client = client
        release = ScriptCache(source: RedisScript.releaseIfOwnerSource)
    }

    public func shutdown() async {
        await subscriptions.subscriber.withLock { $0 }?.shutdown()
        await client.shutdown()
    }

    public func value(at key: [UInt8]) async throws(SharedCacheUnavailable) -> [UInt8]? {
        try await mapped { () async throws(RedisError) in try await client.get(key) }
    }

    public func store(_ value: [UInt8], at key: [UInt8], ttlMilliseconds: Int) async throws(SharedCacheUnavailable) {
        _ = try await mapped { () async throws(RedisError) in
            try await client.set(key, value, expireMilliseconds: max(1, ttlMilliseconds))
        }
    }

    public func acquireLock(_ key: [UInt8], token: [UInt8], ttlMilliseconds: Int) async throws(SharedCacheUnavailable) -> Bool {
        try await mapped { () async throws(RedisError) in
            try await client.set(key, token, expireMilliseconds: max(1, ttlMilliseconds), onlyIfAbsent: true)
        }
    }

    public func releaseLock(_ key: [UInt8], token: [UInt8]) async throws(SharedCacheUnavailable) -> Bool {
        try await mapped { () async throws(RedisError) in
            let script = try await release.script(on: client)
            return try await client.run(script, keys: [key], arguments: [token]) == .integer(1)
        }
    }

    public func deleteKeys(withPrefix prefix: [UInt8]) async throws(SharedCacheUnavailable) -> Int {
        try await mapped { () async throws(RedisError) in
            let pattern = Self.globEscaped(prefix) + [UInt8(ascii: "*")]
            var cursor: UInt64 = 0
            var deleted = 0
            repeat {
                let step = try await client.scan(cursor: cursor, match: pattern, count: 500)
                if !step.keys.isEmpty { deleted += try await client.delete(step.keys) }
                cursor = step.cursor
            } while cursor != 0
            return deleted
        }
    }

    public func publish(_ message: [UInt8], on channel: [UInt8]) async throws(SharedCacheUnavailable) {
        _ = try await mapped { () async throws(RedisError) in try await client.publish(channel, message) }
    }

    public func subscribe(to channel: [UInt8], onMessage: @escaping @Sendable ([UInt8]) -> Void,
                          onGap: @escaping @Sendable () -> Void) async throws(SharedCacheUnavailable) {
        let subscriber = subscriptions.add(channel: channel, onMessage: onMessage, onGap: onGap,
                                           configuration: client.configuration)
        try await mapped { () async throws(RedisError) in try await subscriber.subscribe([channel]) }
    }

    /// `bytes` as a literal in a Redis glob pattern: `*`, `?`, `[`, `]` and `\` escaped.
    static func globEscaped(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "*"), UInt8(ascii: "?"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "\\"):
                out.append(UInt8(ascii: "\\"))
            default:
                break
            }
            out.append(byte)
        }
        return out
    }

    private func mapped<T>(_ body: () async throws(RedisError) -> T) async throws(SharedCacheUnavailable) -> T {
        do {
            return try await body()
        } catch {
            throw SharedCacheUnavailable(error.description)
        }
    }
}

/// The handlers by channel and the one subscriber connection that feeds them.
final class Subscriptions: Sendable {
    private struct Handlers {
        var messages: [[UInt8]: [@Sendable ([UInt8]) -> Void]] = [:]
        var gaps: [@Sendable () -> Void] = []
    }

    private let handlers = Mutex(Handlers())
    let subscriber = Mutex<RedisSubscriber?>(nil)

    /// Registers the handlers and returns the subscriber, created on first use.
    func add(channel: [UInt8], onMessage: @escaping @Sendable ([UInt8]) -> Void, onGap: @escaping @Sendable () -> Void,
             configuration: RedisConfiguration) -> RedisSubscriber {
        handlers.withLock {
            $0.messages[channel, default: []].append(onMessage)
            $0.gaps.append(onGap)
        }
        return subscriber.withLock { current in
            if let current { return current }
            let created = RedisSubscriber(configuration: configuration, onMessage: { [weak self] message in
                for handler in self?.handlers.withLock({ $0.messages[message.channel] ?? [] }) ?? [] { handler(message.payload) }
            }, onAvailabilityChange: { [weak self] up in
                // Every (re)start of the subscription: messages may have been missed before it.
                guard up else { return }
                for gap in self?.handlers.withLock({ $0.gaps }) ?? [] { gap() }
            })
            current = created
            return created
        }
    }
}

/// A script's SHA-1 from `SCRIPT LOAD`, fetched once (concurrent first users may both load it:
/// the same script gives the same SHA-1, so that is harmless).
public final class ScriptCache: Sendable {
    public let source: String
    private let sha1 = Mutex<String?>(nil)

    public init(source: String) {
        self.source = source
    }

    public func script(on client: RedisClient) async throws(RedisError) -> RedisScript {
        if let known = sha1.withLock({ $0 }) { return RedisScript(source: source, sha1: known) }
        let loaded = try await client.loadScript(source)
        sha1.withLock { $0 = loaded }
        return RedisScript(source: source, sha1: loaded)
    }
}
