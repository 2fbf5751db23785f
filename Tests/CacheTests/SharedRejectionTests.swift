import Synchronization
import TestSupport
import Testing
@testable import Cache

/// Values in the shared store are untrusted: what `SharedEntryCheck` and `SharedBinding.accept`
/// refuse, pure and through replicas over the in-memory backend (exact times).
@Suite struct SharedRejectionTests {
    static let key = Array("notes:k".utf8)
    static let limits = SharedValueLimits(ttlSeconds: 60, staleSeconds: 600)

    static func envelope(stored: Int64 = 1_000_000, fresh: Int64 = 60_000, stale: Int64 = 600_000,
                         key: [UInt8] = key, validator: String = "n-v", value: String = "v") -> SharedEnvelope {
        SharedEnvelope(storedAtMilliseconds: stored, expiresAtMilliseconds: stored &+ fresh,
                       staleUntilMilliseconds: stored &+ fresh &+ stale, key: key, validator: validator, value: Array(value.utf8))
    }

    static func check(_ envelope: SharedEnvelope, now: Int64 = 1_000_000,
                      limits: SharedValueLimits? = limits) -> Result<SharedEnvelope, SharedRejection> {
        SharedEntryCheck.check(envelope, expectedKey: key, now: now, limits: limits)
    }

    @Test func timesAndKeyAreChecked() {
        #expect(Self.check(Self.envelope()) == .success(Self.envelope()))
        #expect(Self.check(Self.envelope(key: Array("notes:other".utf8))) == .failure(.key))
        #expect(Self.check(Self.envelope(key: Array("other:k".utf8))) == .failure(.key), "another namespace")
        // Stored at most 5 s after now (clock skew between replicas).
        #expect(Self.check(Self.envelope(stored: 1_005_000)) == .success(Self.envelope(stored: 1_005_000)))
        #expect(Self.check(Self.envelope(stored: 1_005_001)) == .failure(.storedAt))
        // Fresh for at most the namespace's TTL (1 ms of rounding slack).
        #expect(Self.check(Self.envelope(fresh: 60_001)) == .success(Self.envelope(fresh: 60_001)))
        #expect(Self.check(Self.envelope(fresh: 60_002)) == .failure(.expiry))
        #expect(Self.check(Self.envelope(fresh: 365 * 86_400_000)) == .failure(.expiry))
        // INT64_MIN stored-at: the freshness overflows, or is absurd.
        #expect(Self.check(Self.envelope(stored: .min, fresh: 0, stale: 0)) != .failure(.storedAt))
        var absurd = Self.envelope()
        absurd.storedAtMilliseconds = .min
        #expect(Self.check(absurd) == .failure(.expiry))
        // A longer stale window is clamped, not refused.
        let clamped = Self.check(Self.envelope(stale: 86_400_000))
        #expect(clamped == .success(Self.envelope(stale: 600_000)))
        // Without limits, only the layer's absolute bound.
        #expect(Self.check(Self.envelope(fresh: 365 * 86_400_000), limits: nil) == .success(Self.envelope(fresh: 365 * 86_400_000)))
        #expect(Self.check(Self.envelope(fresh: 800 * 86_400_000), limits: nil) == .failure(.expiry))
    }

    @Test func theValueMustReadBelongAndCarryItsOwnValidator() throws {
        typealias Binding = SharedBinding<String, Note>
        #expect(try Binding.accept(Self.envelope(), key: Array("k".utf8)).get() == Note("v"))
        #expect(Binding.accept(Self.envelope(value: "!future"), key: Array("k".utf8)) == .failure(.value))
        #expect(Binding.accept(Self.envelope(validator: "n-w"), key: Array("k".utf8)) == .failure(.validator))
        #expect(Binding.accept(Self.envelope(validator: "n-v\"x"), key: Array("k".utf8)) == .failure(.validator))
    }

    /// Through a replica: each kind of refused value is a miss (loaded again, which overwrites
    /// it), counted by namespace and reason, reported once per value.
    @Test func aRefusedValueIsAbsentCountedAndReported() async throws {
        let cluster = Cluster(valueLimits: ["notes": Self.limits])
        let events = Mutex<[SharedRejectionEvent]>([])
        let a = cluster.replica(onRejected: { event in events.withLock { $0.append(event) } })
        let valueKey = a.layer.valueKey(namespace: "notes", key: Array("k".utf8))
        let now: Int64 = 1_000_000
        let cases: [([UInt8], SharedRejection)] = [
            (Array("garbage".utf8), .envelope),
            (Self.envelope(stored: now, key: Array("notes:j".utf8)).encoded ?? [], .key),
            (Self.envelope(stored: now, validator: "n-forged").encoded ?? [], .validator),
            (Self.envelope(stored: now, validator: "n-!x", value: "!x").encoded ?? [], .value),
            (Self.envelope(stored: now, fresh: 365 * 86_400_000).encoded ?? [], .expiry),
            (Self.envelope(stored: now + 60_000).encoded ?? [], .storedAt),
        ]
        let loads = Locked(0)
        for (bytes, _) in cases {
            a.store.purgeAll()
            try await cluster.backend.store(bytes, at: valueKey, ttlMilliseconds: 60_000)
            let served = try await a.notes().value(for: "k", load: noteLoader("fresh", ttl: 10, calls: loads))
            #expect(served.outcome == .miss)
            #expect(served.value == Note("fresh"))
            #expect(try await cluster.envelope("k")?.validator == "n-fresh", "overwritten by the load")
        }
        #expect(loads.value == cases.count)
        let rejected = a.layer.stats().rejected
        for (_, reason) in cases {
            #expect(rejected[SharedRejectionCount(namespace: "notes", reason: reason)] == 1, "\(reason)")
        }
        #expect(events.withLock { $0 }.map(\.reason) == cases.map(\.1))
        #expect(events.withLock { $0 }.allSatisfy { $0.namespace == "notes" && $0.key == "k" })
    }

    /// A refused value nobody overwrites is deleted; one replaced meanwhile is left alone.
    @Test func aRefusedValueIsDeletedOnlyWhileItIsUnchanged() async throws {
        let cluster = Cluster()
        let a = cluster.replica()
        let valueKey = a.layer.valueKey(namespace: "notes", key: Array("k".utf8))
        try await cluster.backend.store(Array("garbage".utf8), at: valueKey, ttlMilliseconds: 60_000)
        let accept: (SharedEnvelope) -> Result<Note, SharedRejection> = { SharedBinding<String, Note>.accept($0, key: Array("k".utf8)) }
        #expect(await a.layer.checked(Array("garbage".utf8), at: valueKey, namespace: "notes", key: Array("k".utf8),
                                      now: 1_000_000, accept: accept) == nil)
        #expect(try await cluster.backend.value(at: valueKey) == nil, "deleted")
        try await cluster.backend.store(Array("good".utf8), at: valueKey, ttlMilliseconds: 60_000)
        #expect(await a.layer.checked(Array("garbage".utf8), at: valueKey, namespace: "notes", key: Array("k".utf8),
                                      now: 1_000_000, accept: accept) == nil)
        #expect(try await cluster.backend.value(at: valueKey) == Array("good".utf8), "another value is left alone")
    }

    /// An adopted value's stale window is the namespace's at most.
    @Test func aLongStaleWindowIsClampedWhenAdopted() async throws {
        let cluster = Cluster(valueLimits: ["notes": SharedValueLimits(ttlSeconds: 10, staleSeconds: 5)])
        let a = cluster.replica()
        let valueKey = a.layer.valueKey(namespace: "notes", key: Array("k".utf8))
        let long = Self.envelope(stored: 1_000_000, fresh: 10_000, stale: 86_400_000, validator: "n-old", value: "old")
        try await cluster.backend.store(try #require(long.encoded), at: valueKey, ttlMilliseconds: 90_000_000)
        let loads = Locked(0)
        #expect(try await a.notes().value(for: "k", load: noteLoader("new", calls: loads)).value == Note("old"))
        cluster.at(16)
        let past = try await a.notes().value(for: "k", load: noteLoader("new", calls: loads))
        #expect(past.value == Note("new"), "15 s after storing, past the clamped window: loaded again")
    }
}
