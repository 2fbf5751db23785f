import Cache
import Synchronization

/// An in-process `SharedCacheBackend` for unit tests of the cache's shared layer: one instance
/// stands for the store every replica shares. Time comes from a `CacheClock` (tests use
/// `ManualCacheClock`), so expiry is exact and never waited for. `unavailable` makes every call
/// fail, as a Redis that is down would. The contract tests in RedisTests run the same checks
/// against this fake and against a real Redis.
public final class InMemorySharedCacheBackend: SharedCacheBackend {
    private struct Entry {
        var value: [UInt8]
        var expiresAt: Double
    }

    private struct State {
        var entries: [[UInt8]: Entry] = [:]
        var subscribers: [[UInt8]: [@Sendable ([UInt8]) -> Void]] = [:]
        var gapHandlers: [@Sendable () -> Void] = []
        var unavailable: String?
        /// Calls still to fail one by one (a slow moment), then served again.
        var failingCalls = 0
        /// Runs once, just before the next lock is tried (`beforeNextLock`).
        var beforeNextLock: (@Sendable () async -> Void)?
    }

    private let clock: any CacheClock
    private let state = Mutex(State())

    public init(clock: any CacheClock) {
        self.clock = clock
    }

    /// While set, every call throws `SharedCacheUnavailable(reason)`.
    public func setUnavailable(_ reason: String?) {
        state.withLock { $0.unavailable = reason }
    }

    /// The next `count` calls fail (each as a call past its timeout would), later ones succeed.
    public func failNextCalls(_ count: Int) {
        state.withLock { $0.failingCalls = max(0, count) }
    }

    /// Runs `action` once, just before the next `acquireLock` is tried: another replica's
    /// work landing in the gap between a flight's read of a key and its lock.
    public func beforeNextLock(_ action: @escaping @Sendable () async -> Void) {
        state.withLock { $0.beforeNextLock = action }
    }

    /// Calls still set to fail by `failNextCalls`.
    public var callsLeftToFail: Int { state.withLock { $0.failingCalls } }

    /// Simulates a lost and restored connection: every subscriber's `onGap` runs.
    public func simulateGap() {
        for handler in state.withLock({ $0.gapHandlers }) { handler() }
    }

    /// Keys currently stored and not expired (for assertions).
    public var liveKeys: Set<[UInt8]> {
        let now = clock.now()
        return state.withLock { Set($0.entries.filter { $0.value.expiresAt > now }.keys) }
    }

    public func value(at key: [UInt8]) async throws(SharedCacheUnavailable) -> [UInt8]? {
        try live { state, now in
            guard let entry = state.entries[key], entry.expiresAt > now else { return nil }
            return entry.value
        }
    }

    public func store(_ value: [UInt8], at key: [UInt8], ttlMilliseconds: Int) async throws(SharedCacheUnavailable) {
        try live { state, now in
            state.entries[key] = Entry(value: value, expiresAt: now + Double(max(1, ttlMilliseconds)) / 1000)
        }
    }

    public func acquireLock(_ key: [UInt8], token: [UInt8], ttlMilliseconds: Int) async throws(SharedCacheUnavailable) -> Bool {
        let action = state.withLock { state in
            defer { state.beforeNextLock = nil }
            return state.beforeNextLock
        }
        if let action { await action() }
        return try live { state, now in
            if let held = state.entries[key], held.expiresAt > now { return false }
            state.entries[key] = Entry(value: token, expiresAt: now + Double(max(1, ttlMilliseconds)) / 1000)
            return true
        }
    }

    public func releaseLock(_ key: [UInt8], token: [UInt8]) async throws(SharedCacheUnavailable) -> Bool {
        try live { state, now in
            guard let held = state.entries[key], held.expiresAt > now, held.value == token else { return false }
            state.entries[key] = nil
            return true
        }
    }

    public func deleteKeys(withPrefix prefix: [UInt8]) async throws(SharedCacheUnavailable) -> Int {
        try live { state, now in
            let doomed = state.entries.filter { $0.key.starts(with: prefix) && $0.value.expiresAt > now }.map(\.key)
            for key in doomed { state.entries[key] = nil }
            return doomed.count
        }
    }

    public func publish(_ message: [UInt8], on channel: [UInt8]) async throws(SharedCacheUnavailable) {
        let handlers = try live { state, _ in
            state.subscribers[channel] ?? []
        }
        for handler in handlers { handler(message) }
    }

    /// Registers the handlers even while "down" (as Redis would subscribe once back), then throws.
    public func subscribe(to channel: [UInt8], onMessage: @escaping @Sendable ([UInt8]) -> Void,
                          onGap: @escaping @Sendable () -> Void) async throws(SharedCacheUnavailable) {
        let down = state.withLock { state -> String? in
            state.subscribers[channel, default: []].append(onMessage)
            state.gapHandlers.append(onGap)
            return state.unavailable
        }
        if let down { throw SharedCacheUnavailable(down) }
    }

    /// Runs `body` on the state at the clock's current time, unless the store is "down".
    private func live<T>(_ body: (inout State, Double) -> T) throws(SharedCacheUnavailable) -> T {
        let now = clock.now()
        let result: Result<T, SharedCacheUnavailable> = state.withLock { state in
            if let reason = state.unavailable { return .failure(SharedCacheUnavailable(reason)) }
            if state.failingCalls > 0 {
                state.failingCalls -= 1
                return .failure(SharedCacheUnavailable("timed out"))
            }
            return .success(body(&state, now))
        }
        return try result.get()
    }
}
