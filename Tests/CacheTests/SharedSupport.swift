import TestSupport
@testable import Cache

typealias Note = SharedText

/// Replicas sharing one in-memory L2 and one manual clock (monotonic and wall-clock alike, so
/// every time is exact).
struct Cluster {
    let clock = ManualCacheClock(start: 1_000)
    let backend: InMemorySharedCacheBackend
    let settings: SharedCacheLayer.Settings

    init(maxValueBytes: Int = 4_194_304, lockMilliseconds: Int = 2_000, waitLimitSeconds: Double? = nil,
         valueLimits: [String: SharedValueLimits] = [:]) {
        backend = InMemorySharedCacheBackend(clock: clock)
        settings = SharedCacheLayer.Settings(
            keyPrefix: Array("t:".utf8), maxValueBytes: maxValueBytes, lockMilliseconds: lockMilliseconds,
            waitLimitSeconds: waitLimitSeconds, pollInitialMilliseconds: 1, pollMaximumMilliseconds: 4,
            valueLimits: valueLimits)
    }

    /// A new replica: its own store (L1) and layer over the shared backend; `onRejected` hears
    /// of every value it refuses.
    func replica(jitter: Double = 0, refreshRetrySeconds: Double = 0,
                 onRejected: (@Sendable (SharedRejectionEvent) -> Void)? = nil) -> Replica {
        let layer = SharedCacheLayer(backend: backend, settings: settings, wallClock: clock, onRejected: onRejected)
        let store = CacheStore(limits: CacheLimits(maxEntries: 1_000, maxBytes: 1 << 30), clock: clock,
                               randomUnit: { jitter }, refreshRetrySeconds: refreshRetrySeconds, shared: layer)
        return Replica(store: store, layer: layer)
    }

    func at(_ seconds: Double) { clock.set(1_000 + seconds) }

    /// Takes `key`'s fill lock as another replica would (one that may then die, or be slow);
    /// returns the lock's key, to release it with `token`.
    func holdLock(_ key: String, token: String, milliseconds: Int) async throws -> [UInt8] {
        let layer = SharedCacheLayer(backend: backend, settings: settings, wallClock: clock)
        let lock = layer.lockKey(namespace: "notes", key: Array(key.utf8))
        guard try await backend.acquireLock(lock, token: Array(token.utf8), ttlMilliseconds: milliseconds) else {
            throw TestFailure(code: 99)
        }
        return lock
    }

    /// The envelope L2 holds for `key` of `namespace`, if any.
    func envelope(_ key: String, in namespace: String = "notes") async throws -> SharedEnvelope? {
        let layer = SharedCacheLayer(backend: backend, settings: settings, wallClock: clock)
        guard let bytes = try await backend.value(at: layer.valueKey(namespace: namespace, key: Array(key.utf8))) else {
            return nil
        }
        return SharedEnvelope(decoding: bytes)
    }
}

struct Replica {
    let store: CacheStore
    let layer: SharedCacheLayer

    func notes(_ name: String = "notes") -> CacheNamespace<String, Note> {
        store.namespace(name, keyType: String.self, valueType: Note.self)
    }
}

/// A loader of `Note(text)` that counts its calls and may wait on a gate.
func noteLoader(_ text: String, ttl: Double = 10, stale: Double = 0, calls: Locked<Int>, gate: Gate? = nil)
    -> @Sendable () async throws -> CacheLoad<Note> {
    {
        calls.increment()
        if let gate { await gate.wait() }
        return CacheLoad(value: Note(text), ttlSeconds: ttl, staleSeconds: stale)
    }
}
