import TestSupport
import Synchronization
import Testing
@testable import Cache

/// A cached payload whose cost and validator tests choose; counts validator computations.
struct Payload: CacheValue, Equatable {
    var text: String
    var cost: Int = 100
    var validatorCalls: Locked<Int>? = nil

    var cacheCost: Int { cost }
    var cacheValidator: String {
        validatorCalls?.increment()
        return "v-\(text)"
    }

    static func == (a: Payload, b: Payload) -> Bool { a.text == b.text && a.cost == b.cost }
}


struct TestFailure: Error, Equatable {
    var code = 1
}

/// A store with a manual clock and fixed jitter (0 → freshness exactly ttl unless changed).
struct Fixture {
    let clock = ManualCacheClock(start: 1_000)
    /// The jitter tests set explicitly.
    let jitter = Locked(0.0)
    let store: CacheStore

    init(maxEntries: Int = 1_000, maxBytes: Int = 1 << 30, refreshRetrySeconds: Double = 0) {
        store = CacheStore(
            limits: CacheLimits(maxEntries: maxEntries, maxBytes: maxBytes), clock: clock,
            randomUnit: { [jitter] in jitter.value }, refreshRetrySeconds: refreshRetrySeconds)
    }

    func namespace(_ name: String = "rates") -> CacheNamespace<String, Payload> {
        store.namespace(name, keyType: String.self, valueType: Payload.self)
    }

    /// Time relative to the fixture's start.
    func at(_ seconds: Double) { clock.set(1_000 + seconds) }
}

/// A loader that counts its calls and, given a gate, holds each load until the gate opens.
func loader(
    _ text: String, ttl: Double = 10, stale: Double = 0, cost: Int = 100, gate: Gate? = nil, calls: Locked<Int>
) -> @Sendable () async throws -> CacheLoad<Payload> {
    {
        calls.increment()
        if let gate { await gate.wait() }
        return CacheLoad(value: Payload(text: text, cost: cost), ttlSeconds: ttl, staleSeconds: stale)
    }
}

/// Fills `key` with a value loaded at the current time.
@discardableResult
func fill(
    _ ns: CacheNamespace<String, Payload>, _ key: String, text: String? = nil, ttl: Double = 10,
    stale: Double = 0, cost: Int = 100
) async throws -> CacheLookup<Payload> {
    try await ns.value(for: key, load: loader(text ?? key, ttl: ttl, stale: stale, cost: cost, calls: Locked(0)))
}
