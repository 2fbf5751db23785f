/// What the cache's shared second layer (L2, not built yet) needs from a store shared by every
/// replica: bytes with an expiry, owner-token locks, deletion by key prefix, and a broadcast.
///
/// Redis implements it (`RedisSharedCacheBackend` in the Redis module); tests of the cache
/// logic use an in-process fake with a manual clock (`InMemorySharedCacheBackend` in
/// TestSupport), and one contract test suite runs against both, so the fake cannot drift.
///
/// Every call may fail with `SharedCacheUnavailable` (store down, slow or restarting): the
/// caller must then behave as if there were no shared layer, never fail a request because of it.
public protocol SharedCacheBackend: Sendable {
    /// The value stored at `key`, or nil when absent or expired.
    func value(at key: [UInt8]) async throws(SharedCacheUnavailable) -> [UInt8]?

    /// Stores `value` at `key` for `ttlMilliseconds` (≥ 1), replacing any value and expiry.
    func store(_ value: [UInt8], at key: [UInt8], ttlMilliseconds: Int) async throws(SharedCacheUnavailable)

    /// Takes the lock `key` for `ttlMilliseconds` with `token` as owner, only if no one holds
    /// it; true when taken. A holder that dies loses the lock when it expires.
    func acquireLock(_ key: [UInt8], token: [UInt8], ttlMilliseconds: Int) async throws(SharedCacheUnavailable) -> Bool

    /// Releases the lock `key` only while `token` still owns it (an expired lock taken over by
    /// another holder is left alone); true when released.
    func releaseLock(_ key: [UInt8], token: [UInt8]) async throws(SharedCacheUnavailable) -> Bool

    /// Deletes every key starting with `prefix` (byte-wise, no pattern characters); returns how
    /// many were deleted. Incremental on the server (never one blocking scan of the keyspace).
    func deleteKeys(withPrefix prefix: [UInt8]) async throws(SharedCacheUnavailable) -> Int

    /// Sends `message` to every subscriber of `channel` (at most once; none when none listen).
    func publish(_ message: [UInt8], on channel: [UInt8]) async throws(SharedCacheUnavailable)

    /// From now on, every message published on `channel` (by any replica, this one included)
    /// is passed to `onMessage`. Delivery is at most once: whenever messages may have been
    /// missed (the connection to the store was lost and is back; also when the subscription
    /// first becomes active), `onGap` runs, and the subscriber must resynchronize (a cache drops
    /// what the messages would have invalidated).
    /// Throws when the subscription cannot be confirmed now; it stays registered and takes
    /// effect when the store is reachable again (followed by `onGap`).
    func subscribe(to channel: [UInt8], onMessage: @escaping @Sendable ([UInt8]) -> Void,
                   onGap: @escaping @Sendable () -> Void) async throws(SharedCacheUnavailable)
}

/// The shared store could not answer (down, slow, restarting, refused); the reason never holds
/// a secret.
public struct SharedCacheUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { "shared cache unavailable: \(reason)" }
}

extension SharedCacheBackend {
    /// Deletes `key` only while it still holds exactly `value`: a rejected value goes, a good
    /// one another replica stored since is left alone. The lock release's compare-and-delete
    /// (an owner token is a value like any other), so every backend has it already.
    func deleteValue(_ key: [UInt8], ifStill value: [UInt8]) async throws(SharedCacheUnavailable) {
        _ = try await releaseLock(key, token: value)
    }
}
