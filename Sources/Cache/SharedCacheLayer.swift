import Synchronization

/// The cache's shared second layer (L2): one store every replica reads and fills, so a key is
/// loaded from upstream once per TTL for the whole cluster, and every replica serves it with
/// the same bytes, `ETag`, `Age` and `max-age`.
///
/// A `CacheStore` given a layer consults it only when its in-memory layer (L1) cannot answer:
/// inside the key's single flight, never on an L1 hit. For one flight (`fill`):
/// 1. read the key's envelope: fresh → adopt it (times and validator as stored); within its
///    stale window and the flight is a miss → adopt it as stale, and refresh it in the
///    background at once (as a stale L1 entry is);
/// 2. otherwise take the key's fill lock (`SET NX PX`, a random owner token, `lockMilliseconds`
///    long — the bound of one load, so a holder that dies blocks the others no longer than that);
///    the holder loads, stores the envelope (when it fits `maxValueBytes`; Redis TTL = stale-until
///    − now) and releases the lock (only while it still owns it);
/// 3. a replica that finds the lock held waits without calling upstream: it polls the value
///    with a backoff (`pollInitialMilliseconds` doubling to `pollMaximumMilliseconds`) and tries
///    the lock again at each step, so when the holder stores the value it is adopted, and when
///    the lock vanishes without a value (holder died or failed) the first to retry takes over.
///    Past `waitLimitSeconds` it loads by itself (a holder that slow is no better than none).
///    Polling was chosen over a "filled" pub/sub message: it needs no second connection per
///    waiter, loses nothing across a reconnect, and costs two small round trips per step only
///    while a key is being loaded elsewhere.
///
/// Background refreshes (stale-while-revalidate) follow the same steps, so they are
/// cluster-wide single too: a replica whose refresh finds another replica's refresh under way
/// keeps serving its stale value and adopts the other's result, without calling upstream.
///
/// Any `SharedCacheUnavailable` ends the layer's part in that flight: it loads from upstream
/// exactly as a store without L2 would, and never fails or waits longer than the backend's own
/// call timeout because of the layer.
public final class SharedCacheLayer: Sendable {
    public struct Settings: Sendable {
        /// Prepended to every key and channel (`cache.redis.keyPrefix`).
        public var keyPrefix: [UInt8]
        /// Larger envelopes stay in L1 only (`cache.redis.maxValueBytes`).
        public var maxValueBytes: Int
        /// How long a fill lock lives: the longest one load may take (upstream deadline and margin).
        public var lockMilliseconds: Int
        /// How long a flight waits for another replica's load before loading by itself.
        public var waitLimitSeconds: Double
        public var pollInitialMilliseconds: Int
        public var pollMaximumMilliseconds: Int
        /// Per namespace, the longest freshness and stale window its values may claim (the
        /// configured TTLs); a namespace not named here is bound only by
        /// `longestLifetimeMilliseconds`.
        public var valueLimits: [String: SharedValueLimits]

        public init(keyPrefix: [UInt8] = Array("almanac:".utf8), maxValueBytes: Int = 4_194_304,
                    lockMilliseconds: Int = 30_000, waitLimitSeconds: Double? = nil,
                    pollInitialMilliseconds: Int = 5, pollMaximumMilliseconds: Int = 100,
                    valueLimits: [String: SharedValueLimits] = [:]) {
            self.valueLimits = valueLimits
            self.keyPrefix = keyPrefix
            self.maxValueBytes = max(0, maxValueBytes)
            self.lockMilliseconds = max(1, lockMilliseconds)
            self.waitLimitSeconds = waitLimitSeconds ?? Double(self.lockMilliseconds) / 1_000
            self.pollInitialMilliseconds = max(1, pollInitialMilliseconds)
            self.pollMaximumMilliseconds = max(self.pollInitialMilliseconds, pollMaximumMilliseconds)
        }
    }

    public let backend: any SharedCacheBackend
    public let settings: Settings
    /// Unix seconds: the envelope's times are wall-clock so that they mean the same on every replica.
    let wallClock: any CacheClock
    private let availability: (@Sendable () -> Bool)?
    private let lastCallSucceeded = Atomic<Bool>(false)
    private let counters = Mutex(SharedCacheStats())
    private let onRejected: (@Sendable (SharedRejectionEvent) -> Void)?

    /// - Parameters:
    ///   - wallClock: Unix time in seconds; defaults to the system's real-time clock (tests
    ///     pass the `ManualCacheClock` their store and fake backend use).
    ///   - availability: the backend's own view of its connection (e.g. `RedisClient.isAvailable`,
    ///     kept current by its health checks even without traffic); without it, `isAvailable`
    ///     is the outcome of the layer's last call.
    ///   - onRejected: told of every value read from the store and not served (the service
    ///     logs it, at most once a minute per reason); it must return quickly.
    public init(backend: any SharedCacheBackend, settings: Settings = Settings(),
                wallClock: (any CacheClock)? = nil, availability: (@Sendable () -> Bool)? = nil,
                onRejected: (@Sendable (SharedRejectionEvent) -> Void)? = nil) {
        self.onRejected = onRejected
        self.backend = backend
        self.settings = settings
        self.wallClock = wallClock ?? UnixCacheClock()
        self.availability = availability
    }

    /// Whether the shared store answers now (`almanac_cache_l2_up`, `/readyz`).
    public var isAvailable: Bool {
        availability?() ?? lastCallSucceeded.load(ordering: .relaxed)
    }

    /// The layer's counters, `up` included.
    public func stats() -> SharedCacheStats {
        var stats = counters.withLock { $0 }
        stats.up = isAvailable
        return stats
    }

    // MARK: Key layout

    /// `P c1: namespace : key` — a value's envelope ("c1": layout version 1 of cache keys).
    func valueKey(namespace: String, key: [UInt8]) -> [UInt8] {
        settings.keyPrefix + Array("c1:".utf8) + Array(namespace.utf8) + [UInt8(ascii: ":")] + key
    }

    /// Every value key of `namespace` starts with this; nil: every namespace's.
    func valuePrefix(namespace: String?) -> [UInt8] {
        guard let namespace else { return settings.keyPrefix + Array("c1:".utf8) }
        return settings.keyPrefix + Array("c1:".utf8) + Array(namespace.utf8) + [UInt8(ascii: ":")]
    }

    /// `P lock: namespace : key` — the key's fill lock.
    func lockKey(namespace: String, key: [UInt8]) -> [UInt8] {
        settings.keyPrefix + Array("lock:".utf8) + Array(namespace.utf8) + [UInt8(ascii: ":")] + key
    }

    /// `P invalidate` — where purges are announced.
    var invalidateChannel: [UInt8] { settings.keyPrefix + Array("invalidate".utf8) }

    /// An envelope servable for longer than this (two years: more than almanac's longest TTL
    /// plus longest stale window, a year each) is treated as absent: it can only be damaged or
    /// foreign, and adopting it would pin a value in L1 for good.
    static let longestLifetimeMilliseconds: Int64 = 2 * 366 * 86_400_000

    /// The message of `purgeAll` on the invalidate channel (no namespace is named `*`).
    static let everyNamespace: [UInt8] = [UInt8(ascii: "*")]

    // MARK: One flight

    /// How a flight goes on after consulting the layer.
    enum FillStart<Value: Sendable>: Sendable {
        /// The shared store had it (fresh, or stale for a miss): serve this, load nothing.
        case adopted(Value, SharedEnvelope, stale: Bool)
        /// Load from upstream; then `finish(_:)` with the ticket (nil: leave the layer alone).
        case load(FillTicket?)
    }

    /// What a flight that loads owes the layer: the value key to store, and the lock to release.
    struct FillTicket: Sendable {
        var valueKey: [UInt8]
        var lockKey: [UInt8]
        /// Nil when the flight loads without the lock (waited past the limit).
        var token: [UInt8]?
    }

    /// Steps 1–3 of the type's description, for one flight of `key` in `namespace`.
    /// `accept` reads the value an envelope carries (`SharedBinding.accept`); `acceptStale` lets
    /// a miss adopt a value within its stale window. Every value read is checked first
    /// (`checked`): one that fails is treated as absent. Throws only `CancellationError` (the
    /// flight was abandoned while waiting).
    func fill<Value: Sendable>(namespace: String, key: [UInt8], acceptStale: Bool, clock: any CacheClock,
                               accept: (SharedEnvelope) -> Result<Value, SharedRejection>) async throws -> FillStart<Value> {
        let valueKey = valueKey(namespace: namespace, key: key)
        let lockKey = lockKey(namespace: namespace, key: key)
        let deadline = clock.now() + settings.waitLimitSeconds
        var delay = settings.pollInitialMilliseconds
        var waited = false
        var countedMiss = false
        var failuresInARow = 0
        /// One call to the store: its answer, or nil when it failed. Before any wait a failed
        /// call means "load as without the layer" at once (`giveUp`). A flight already waiting
        /// has seen the lock held, so another replica is loading: a call that fails then
        /// (Redis slow for a moment, past `timeoutMs`) is retried after the next pause, up to
        /// `waitFailureTolerance` failures in a row, rather than sending the cluster's second
        /// upstream request for the key.
        func call<T>(_ body: () async throws(SharedCacheUnavailable) -> T) async -> T? {
            do {
                let answer = try await body()
                noteSuccess()
                failuresInARow = 0
                return answer
            } catch {
                noteFailure()
                failuresInARow += 1
                return nil
            }
        }
        var giveUp: Bool { !waited || failuresInARow > Self.waitFailureTolerance }
        while true {
            guard let stored = await call({ () async throws(SharedCacheUnavailable) in try await backend.value(at: valueKey) }) else {
                if giveUp { return .load(nil) }
                try await pause(&delay)
                continue
            }
            let now = wallMilliseconds()
            if let stored, let (value, envelope) = await checked(stored, at: valueKey, namespace: namespace, key: key,
                                                                  now: now, accept: accept) {
                if now < envelope.expiresAtMilliseconds {
                    count { $0.hits += 1 }
                    return .adopted(value, envelope, stale: false)
                }
                if acceptStale, now < envelope.staleUntilMilliseconds {
                    count { $0.staleHits += 1 }
                    return .adopted(value, envelope, stale: true)
                }
            }
            if !countedMiss {
                countedMiss = true
                count { $0.misses += 1 }
            }
            let token = Self.newToken()
            let lock = await call { () async throws(SharedCacheUnavailable) in
                try await backend.acquireLock(lockKey, token: token, ttlMilliseconds: settings.lockMilliseconds)
            }
            guard let taken = lock else {
                if giveUp { return .load(nil) }
                try await pause(&delay)
                continue
            }
            if taken {
                // Another replica may have stored the value and released its lock between the
                // read above and this lock: read once more, so that gap never costs the cluster
                // a second upstream request for a key just filled.
                if let adopted = await freshValue(at: valueKey, namespace: namespace, key: key, accept: accept) {
                    await release(lockKey, token: token)
                    count { $0.hits += 1 }
                    return .adopted(adopted.value, adopted.envelope, stale: false)
                }
                if waited { count { $0.takeovers += 1 } }
                return .load(FillTicket(valueKey: valueKey, lockKey: lockKey, token: token))
            }
            if !waited {
                waited = true
                count { $0.lockWaits += 1 }
            }
            if clock.now() >= deadline {
                count { $0.waitTimeouts += 1 }
                return .load(FillTicket(valueKey: valueKey, lockKey: lockKey, token: nil))
            }
            try await pause(&delay)
        }
    }

    /// The value `stored` (read at `valueKey`) carries and its envelope (stale window clamped to
    /// the namespace's), or nil when any check fails: the rejection is then counted, reported
    /// to `onRejected`, and the key deleted (best effort; the flight's own load overwrites it
    /// anyway). An envelope still readable but expired is not a rejection: that is a miss.
    func checked<Value>(_ stored: [UInt8], at valueKey: [UInt8], namespace: String, key: [UInt8], now: Int64,
                        accept: (SharedEnvelope) -> Result<Value, SharedRejection>) async -> (Value, SharedEnvelope)? {
        switch Self.verdict(stored, namespace: namespace, key: key, now: now, limits: settings.valueLimits[namespace],
                            accept: accept) {
        case .success(let accepted):
            return accepted
        case .failure(let reason):
            count { $0.rejected[SharedRejectionCount(namespace: namespace, reason: reason), default: 0] += 1 }
            onRejected?(SharedRejectionEvent(namespace: namespace, key: Self.printable(key), reason: reason))
            do {
                try await backend.deleteValue(valueKey, ifStill: stored)
                noteSuccess()
            } catch {
                noteFailure()
            }
            return nil
        }
    }

    /// Every check of bytes read at `key` of `namespace` at `now` (Unix ms), in order: the
    /// envelope, its key and times (`SharedEntryCheck`), then the value (`accept`).
    static func verdict<Value>(_ stored: [UInt8], namespace: String, key: [UInt8], now: Int64, limits: SharedValueLimits?,
                               accept: (SharedEnvelope) -> Result<Value, SharedRejection>)
        -> Result<(Value, SharedEnvelope), SharedRejection> {
        guard let envelope = SharedEnvelope(decoding: stored) else { return .failure(.envelope) }
        return SharedEntryCheck.check(envelope, expectedKey: SharedEnvelope.key(namespace: namespace, key: key),
                                      now: now, limits: limits)
            .flatMap { envelope in accept(envelope).map { ($0, envelope) } }
    }

    /// What a replica does with `stored`, read at `key` of `namespace` at `now` (Unix ms): the
    /// value and envelope it would serve, or why it would refuse them. The same checks as a
    /// flight's, without a store (the fuzz target's entry).
    public static func verdict<Key: SharedCacheKey, Value: SharedCacheValue>(
        _ stored: [UInt8], namespace: String, key: Key, as type: Value.Type, now: Int64, limits: SharedValueLimits?
    ) -> Result<(Value, SharedEnvelope), SharedRejection> {
        let keyBytes = key.sharedCacheKeyBytes
        return verdict(stored, namespace: namespace, key: keyBytes, now: now, limits: limits,
                       accept: { SharedBinding<Key, Value>.accept($0, key: keyBytes) })
    }

    /// `bytes` as log text: visible ASCII as it is, anything else as `\xHH` (a key read back
    /// is ours, but a log line must not carry what it cannot show).
    static func printable(_ bytes: [UInt8]) -> String {
        var text = ""
        for byte in bytes.prefix(256) {
            if SharedEnvelope.isVisibleASCII(byte), byte != UInt8(ascii: "\\") {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let digits = Array("0123456789abcdef".unicodeScalars)
                text += "\\x"
                text.unicodeScalars.append(digits[Int(byte >> 4)])
                text.unicodeScalars.append(digits[Int(byte & 0xF)])
            }
        }
        return text
    }

    /// Failed calls in a row a waiting flight rides out before loading by itself (see `fill`).
    static let waitFailureTolerance = 2

    /// The poll's pause, doubling up to `pollMaximumMilliseconds`.
    private func pause(_ delay: inout Int) async throws {
        try await Task.sleep(nanoseconds: UInt64(delay) * 1_000_000)
        delay = min(delay * 2, settings.pollMaximumMilliseconds)
    }

    /// The fresh, checked value at `valueKey`, or nil (absent, expired, refused, or the store
    /// did not answer).
    private func freshValue<Value>(at valueKey: [UInt8], namespace: String, key: [UInt8],
                                   accept: (SharedEnvelope) -> Result<Value, SharedRejection>) async
        -> (value: Value, envelope: SharedEnvelope)? {
        let stored: [UInt8]?
        do {
            stored = try await backend.value(at: valueKey)
            noteSuccess()
        } catch {
            noteFailure()
            return nil
        }
        let now = wallMilliseconds()
        guard let stored, let (value, envelope) = await checked(stored, at: valueKey, namespace: namespace, key: key,
                                                                now: now, accept: accept),
              now < envelope.expiresAtMilliseconds else { return nil }
        return (value, envelope)
    }

    /// Releases a fill lock this flight holds (best effort: it expires by itself).
    private func release(_ lockKey: [UInt8], token: [UInt8]) async {
        do {
            _ = try await backend.releaseLock(lockKey, token: token)
            noteSuccess()
        } catch {
            noteFailure()
        }
    }

    /// After the ticket's load: stores `envelope` (nil: the load failed, or cannot be encoded)
    /// when it fits and is still servable, then releases the lock if the flight holds it.
    /// Storing comes first, so that waiters never see the lock gone before the value is there.
    func finish(_ ticket: FillTicket, envelope: [UInt8]?, staleUntilMilliseconds: Int64) async {
        if let envelope {
            let ttl = staleUntilMilliseconds - wallMilliseconds()
            if envelope.count > settings.maxValueBytes {
                count { $0.oversized += 1 }
            } else if ttl > 0 {
                do {
                    try await backend.store(envelope, at: ticket.valueKey, ttlMilliseconds: Int(clamping: ttl))
                    noteSuccess()
                    count { $0.stores += 1 }
                } catch {
                    noteFailure()
                }
            }
        }
        if let token = ticket.token { await release(ticket.lockKey, token: token) }
    }

    // MARK: Purges

    /// Deletes the namespace's values (every namespace's when nil) from the shared store and
    /// tells every replica to drop its L1 copy. Returns the number of keys deleted.
    func purge(namespace: String?) async throws(SharedCacheUnavailable) -> Int {
        do {
            let deleted = try await backend.deleteKeys(withPrefix: valuePrefix(namespace: namespace))
            try await backend.publish(namespace.map { Array($0.utf8) } ?? Self.everyNamespace, on: invalidateChannel)
            noteSuccess()
            count { $0.purges += 1 }
            return deleted
        } catch {
            noteFailure()
            throw error
        }
    }

    // MARK: Bookkeeping

    func wallMilliseconds() -> Int64 {
        Self.milliseconds(wallClock.now())
    }

    /// Seconds as whole milliseconds, saturating (a clock reading is never NaN or near Int64's range).
    static func milliseconds(_ seconds: Double) -> Int64 {
        let ms = (seconds * 1_000).rounded()
        guard ms.isFinite else { return 0 }
        return Int64(max(-9.0e15, min(9.0e15, ms)))
    }

    func noteSuccess() { lastCallSucceeded.store(true, ordering: .relaxed) }

    func noteFailure() {
        lastCallSucceeded.store(false, ordering: .relaxed)
        count { $0.errors += 1 }
    }

    func count(_ change: (inout SharedCacheStats) -> Void) {
        counters.withLock { change(&$0) }
    }

    /// 16 random bytes as hex: owner tokens that no other holder will ever present.
    static func newToken() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var token: [UInt8] = []
        token.reserveCapacity(32)
        for _ in 0..<2 {
            let bits = generator.next() as UInt64
            for shift in stride(from: 60, through: 0, by: -4) { token.append(digits[Int((bits >> UInt64(shift)) & 0xF)]) }
        }
        return token
    }
}
