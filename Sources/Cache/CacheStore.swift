// PLACEHOLDER: the cache helper implements this.

/// All namespaces under one memory budget (`cache.maxEntries`, `cache.maxBytes`), least
/// recently used first out across namespaces.
public final class CacheStore: Sendable {
    public init(limits: CacheLimits, clock: (any CacheClock)? = nil) { fatalError("not implemented") }

    /// A typed view on one namespace (`rates`, `books`, `covers`). Asking twice for the same
    /// name returns views on the same entries.
    public func namespace<Key: Hashable & Sendable, Value: CacheValue>(
        _ name: String, keyType: Key.Type, valueType: Value.Type
    ) -> CacheNamespace<Key, Value> { fatalError("not implemented") }

    public func purgeAll() { fatalError("not implemented") }
    /// Returns false when no namespace has that name.
    @discardableResult public func purge(namespace: String) -> Bool { fatalError("not implemented") }
    public func stats() -> [String: CacheStats] { fatalError("not implemented") }
}

public final class CacheNamespace<Key: Hashable & Sendable, Value: CacheValue>: Sendable {
    /// The cached value for `key`: fresh → at once (HIT); missing → one `load` shared by all
    /// concurrent callers (MISS); expired within its stale window → the stale value at once
    /// (STALE) and one background refresh; past the window → a load whose error surfaces.
    public func value(for key: Key, load: @escaping @Sendable () async throws -> CacheLoad<Value>) async throws -> CacheLookup<Value> {
        fatalError("not implemented")
    }

    /// Synchronous fast path: a fresh entry (counted as a hit), else nil and nothing counted.
    public func fresh(_ key: Key) -> CacheLookup<Value>? { fatalError("not implemented") }

    public func purge() { fatalError("not implemented") }
}
