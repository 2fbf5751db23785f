import TestSupport
import Testing
@testable import Cache

/// The shared layer (L2) with replicas over one in-memory backend: every rule of
/// `SharedCacheLayer`, with exact times.
@Suite struct SharedLayerTests {
    /// A replica that misses adopts the value another one stored: HIT from `.shared`, `Age` from
    /// the stored time, freshness from the stored expiry (no second jitter), the same validator.
    @Test func sharedHitFillsL1WithStoredTimesAndValidator() async throws {
        let cluster = Cluster()
        let a = cluster.replica(jitter: 0.5), b = cluster.replica(jitter: 1)
        let loads = Locked(0)
        let first = try await a.notes().value(for: "k", load: noteLoader("v1", ttl: 10, stale: 5, calls: loads))
        #expect(first.outcome == .miss)
        #expect(first.source == .memory)
        #expect(first.freshnessLeftSeconds == 9.5)
        let stored = try #require(try await cluster.envelope("k"))
        #expect(stored.storedAtMilliseconds == 1_000_000)
        #expect(stored.expiresAtMilliseconds == 1_009_500)
        #expect(stored.staleUntilMilliseconds == 1_014_500)
        #expect(stored.validator == "n-v1")
        #expect(cluster.backend.liveKeys.count == 1, "the fill lock was released")

        cluster.at(3)
        let adopted = try await b.notes().value(for: "k", load: noteLoader("other", calls: loads))
        #expect(adopted.outcome == .hit)
        #expect(adopted.source == .shared)
        #expect(adopted.value == Note("v1"))
        #expect(adopted.ageSeconds == 3)
        #expect(adopted.freshnessLeftSeconds == 6.5)
        #expect(adopted.validator == "n-v1")
        #expect(loads.value == 1)

        let memory = try #require(b.notes().fresh("k"))
        #expect(memory.source == .memory)
        #expect(memory.ageSeconds == 3)
        cluster.at(9.5)
        #expect(b.notes().fresh("k") == nil, "expiry is the stored one")
        #expect(b.layer.stats().hits == 1)
        #expect(b.layer.stats().up)
    }

    /// A miss whose read comes just before another replica stores the key and releases its
    /// lock takes the free lock, then finds the value there: it adopts it instead of sending
    /// the cluster's second upstream request for the key, and gives the lock back.
    @Test func aValueStoredBetweenTheReadAndTheLockIsAdopted() async throws {
        let cluster = Cluster()
        let a = cluster.replica(), b = cluster.replica()
        let loads = Locked(0)
        cluster.backend.beforeNextLock {
            _ = try? await b.notes().value(for: "k", load: noteLoader("fromB", calls: loads))
        }
        let answer = try await a.notes().value(for: "k", load: noteLoader("fromA", calls: loads))
        #expect(loads.value == 1, "only b loaded")
        #expect(answer.value == Note("fromB"))
        #expect(answer.source == .shared)
        #expect(cluster.backend.liveKeys.count == 1, "a released the lock it took: only the value is left")
    }

    /// Two replicas, one cold key, concurrent misses: one upstream load; the other replica waits
    /// for the lock's holder and adopts its value.
    @Test func coldKeyIsLoadedOnceAcrossReplicas() async throws {
        let cluster = Cluster()
        let a = cluster.replica(), b = cluster.replica()
        let loads = Locked(0), gate = Gate()
        async let fromA = a.notes().value(for: "k", load: noteLoader("v", calls: loads, gate: gate))
        #expect(await waitUntil { gate.arrived == 1 }, "A holds the lock and loads")
        async let fromB = b.notes().value(for: "k", load: noteLoader("v", calls: loads, gate: gate))
        #expect(await waitUntil { b.layer.stats().lockWaits == 1 }, "B waits for A")
        gate.open()
        let (answerA, answerB) = try await (fromA, fromB)
        #expect(answerA.outcome == .miss)
        #expect(answerB.outcome == .hit)
        #expect(answerB.source == .shared)
        #expect(answerB.validator == answerA.validator)
        #expect(loads.value == 1)
        #expect(b.layer.stats().takeovers == 0)
    }

    /// A waiter rides out a slow moment of the shared store (a call or two past its timeout):
    /// it still adopts the holder's value instead of sending a second upstream request; a third
    /// failure in a row, and it loads by itself.
    @Test func aWaiterRidesOutTwoFailedCallsButNotThree() async throws {
        for (failures, expectedLoads) in [(2, 1), (3, 2)] {
            let cluster = Cluster()
            let a = cluster.replica(), b = cluster.replica()
            let loads = Locked(0), gate = Gate()
            async let fromA = a.notes().value(for: "k", load: noteLoader("v", calls: loads, gate: gate))
            #expect(await waitUntil { gate.arrived == 1 }, "A holds the lock and loads")
            async let fromB = b.notes().value(for: "k", load: noteLoader("v", calls: loads))
            #expect(await waitUntil { b.layer.stats().lockWaits == 1 }, "B waits for A")
            cluster.backend.failNextCalls(failures)
            #expect(await waitUntil { cluster.backend.callsLeftToFail == 0 || loads.value == 2 }, "B met the failures")
            gate.open()
            let (_, answerB) = try await (fromA, fromB)
            #expect(loads.value == expectedLoads, "\(failures) failed calls in a row")
            if expectedLoads == 1 {
                #expect(answerB.outcome == .hit)
                #expect(answerB.source == .shared)
            }
        }
    }

    /// A lock whose holder died is taken over once it expires, by a waiter that never called
    /// upstream before.
    @Test func waiterTakesOverWhenTheHolderDies() async throws {
        let cluster = Cluster(lockMilliseconds: 2_000)
        let b = cluster.replica()
        _ = try await cluster.holdLock("k", token: "dead", milliseconds: 2_000)
        let loads = Locked(0)
        async let answer = b.notes().value(for: "k", load: noteLoader("v", calls: loads))
        #expect(await waitUntil { b.layer.stats().lockWaits == 1 }, "B waits")
        #expect(loads.value == 0)
        cluster.at(2.001)
        let served = try await answer
        #expect(served.outcome == .miss)
        #expect(loads.value == 1)
        #expect(b.layer.stats().takeovers == 1)
        #expect(try await cluster.envelope("k")?.validator == "n-v")
    }

    /// A holder whose load fails releases the lock at once: a waiter takes over without waiting
    /// for the lock's expiry.
    @Test func failedHolderReleasesTheLockForATakeover() async throws {
        let cluster = Cluster(lockMilliseconds: 60_000)
        let a = cluster.replica(), b = cluster.replica()
        let gate = Gate()
        let failing: @Sendable () async throws -> CacheLoad<Note> = {
            await gate.wait()
            throw TestFailure(code: 3)
        }
        async let fromA = a.notes().value(for: "k", load: failing)
        #expect(await waitUntil { gate.arrived == 1 }, "A loads")
        let loads = Locked(0)
        async let fromB = b.notes().value(for: "k", load: noteLoader("v", calls: loads))
        #expect(await waitUntil { b.layer.stats().lockWaits == 1 }, "B waits")
        gate.open()
        var failure: (any Error)?
        do { _ = try await fromA } catch { failure = error }
        #expect(failure as? TestFailure == TestFailure(code: 3))
        #expect(try await fromB.value == Note("v"))
        #expect(loads.value == 1)
        #expect(b.layer.stats().takeovers == 1)
    }

    /// Past the wait limit a waiter loads by itself (and still stores its newer value).
    @Test func waiterLoadsItselfPastTheWaitLimit() async throws {
        let cluster = Cluster(lockMilliseconds: 60_000, waitLimitSeconds: 1)
        let b = cluster.replica()
        let lock = try await cluster.holdLock("k", token: "slow", milliseconds: 60_000)
        let loads = Locked(0)
        async let answer = b.notes().value(for: "k", load: noteLoader("v", calls: loads))
        #expect(await waitUntil { b.layer.stats().lockWaits == 1 }, "B waits")
        cluster.at(1)
        #expect(try await answer.outcome == .miss)
        #expect(b.layer.stats().waitTimeouts == 1)
        #expect(try await cluster.envelope("k") != nil)
        #expect(try await cluster.backend.releaseLock(lock, token: Array("slow".utf8)), "the other holder's lock was left alone")
    }

    /// Stale-while-revalidate is single for the cluster: the replica whose refresh finds another
    /// replica's under way keeps serving stale, never calls upstream, and adopts the new value.
    @Test func staleRefreshIsSingleAcrossReplicas() async throws {
        let cluster = Cluster()
        let a = cluster.replica(), b = cluster.replica()
        let loads = Locked(0)
        _ = try await a.notes().value(for: "k", load: noteLoader("old", ttl: 10, stale: 100, calls: loads))
        #expect(try await b.notes().value(for: "k", load: noteLoader("x", calls: loads)).source == .shared)
        cluster.at(20)
        let gate = Gate()
        #expect(try await a.notes().value(for: "k", load: noteLoader("new", ttl: 10, stale: 100, calls: loads, gate: gate)).outcome == .stale)
        #expect(await waitUntil { gate.arrived == 1 }, "A refreshes")
        let fromB = try await b.notes().value(for: "k", load: noteLoader("b-new", ttl: 10, stale: 100, calls: loads))
        #expect(fromB.outcome == .stale)
        #expect(fromB.value == Note("old"))
        #expect(await waitUntil { b.layer.stats().lockWaits == 1 }, "B's refresh waits for A's")
        #expect(try await b.notes().value(for: "k", load: noteLoader("b-new", calls: loads)).value == Note("old"))
        gate.open()
        #expect(await waitUntil { b.notes().fresh("k") != nil }, "B adopted A's refresh")
        #expect(b.notes().fresh("k")?.value == Note("new"))
        #expect(b.notes().fresh("k")?.ageSeconds == 0)
        #expect(loads.value == 2, "the first load and one refresh")
        #expect(b.notes().stats().loadsInFlight == 0)
    }

    /// A refresh finds that another replica refreshed already: it adopts that, no lock, no load.
    @Test func staleRefreshAdoptsAnotherReplicasRefresh() async throws {
        let cluster = Cluster()
        let a = cluster.replica(), b = cluster.replica()
        let loads = Locked(0)
        _ = try await a.notes().value(for: "k", load: noteLoader("old", ttl: 10, stale: 100, calls: loads))
        _ = try await b.notes().value(for: "k", load: noteLoader("x", calls: loads))
        cluster.at(20)
        #expect(try await a.notes().value(for: "k", load: noteLoader("new", ttl: 10, stale: 100, calls: loads)).outcome == .stale)
        #expect(await waitUntil { a.notes().fresh("k") != nil }, "A refreshed")
        cluster.at(25)
        #expect(try await b.notes().value(for: "k", load: noteLoader("b-new", calls: loads)).outcome == .stale)
        #expect(await waitUntil { b.notes().fresh("k") != nil }, "B adopted")
        let adopted = try #require(b.notes().fresh("k"))
        #expect(adopted.value == Note("new"))
        #expect(adopted.ageSeconds == 5)
        #expect(loads.value == 2)
        #expect(b.layer.stats().lockWaits == 0)
    }

    /// A replica that misses a key whose shared value is within its stale window serves it stale
    /// at once and refreshes it in the background, as it would its own stale entry.
    @Test func missAdoptsAStaleSharedValue() async throws {
        let cluster = Cluster()
        let a = cluster.replica(), b = cluster.replica()
        let loads = Locked(0)
        _ = try await a.notes().value(for: "k", load: noteLoader("old", ttl: 10, stale: 100, calls: loads))
        cluster.at(30)
        let stale = try await b.notes().value(for: "k", load: noteLoader("new", ttl: 10, stale: 100, calls: loads))
        #expect(stale.outcome == .stale)
        #expect(stale.source == .shared)
        #expect(stale.ageSeconds == 30)
        #expect(stale.freshnessLeftSeconds == 0)
        #expect(await waitUntil { b.notes().fresh("k")?.value == Note("new") }, "refreshed")
        #expect(loads.value == 2)
        #expect(try await cluster.envelope("k")?.value == Array("new".utf8))
    }

    /// The shared store down: every call loads from upstream as without L2, nothing fails, and
    /// the layer reports itself down; back up, it is used again.
    @Test func unavailableBackendLoadsAsWithoutL2() async throws {
        let cluster = Cluster()
        let a = cluster.replica()
        cluster.backend.setUnavailable("connection refused")
        let loads = Locked(0)
        let served = try await a.notes().value(for: "k", load: noteLoader("v", calls: loads))
        #expect(served.outcome == .miss)
        #expect(served.source == .memory)
        #expect(loads.value == 1)
        #expect(!a.layer.isAvailable)
        #expect(a.layer.stats().errors == 1)
        #expect(await a.store.purgeEverywhere(namespace: "notes") == .unavailable("connection refused"))
        #expect(a.notes().fresh("k") == nil, "the local purge happened anyway")

        cluster.backend.setUnavailable(nil)
        _ = try await a.notes().value(for: "k2", load: noteLoader("v2", calls: loads))
        #expect(a.layer.isAvailable)
        #expect(try await cluster.envelope("k2") != nil)
    }

    /// Values whose envelope exceeds `maxValueBytes` stay in L1 only.
    @Test func oversizedValuesStayInL1() async throws {
        let cluster = Cluster(maxValueBytes: 64)
        let a = cluster.replica(), b = cluster.replica()
        let loads = Locked(0)
        let big = String(repeating: "x", count: 64)
        _ = try await a.notes().value(for: "big", load: noteLoader(big, calls: loads))
        _ = try await a.notes().value(for: "small", load: noteLoader("s", calls: loads))
        #expect(try await cluster.envelope("big") == nil)
        #expect(try await cluster.envelope("small") != nil)
        #expect(a.layer.stats().oversized == 1)
        #expect(a.notes().fresh("big")?.value == Note(big))
        #expect(try await b.notes().value(for: "big", load: noteLoader(big, calls: loads)).outcome == .miss)
        #expect(loads.value == 3)
    }

    /// Bytes the layer cannot read (damaged, another version, a value its type refuses, an absurd lifetime) are
    /// absent: loaded again and overwritten.
    @Test func unreadableSharedValuesAreAbsent() async throws {
        let cluster = Cluster()
        let a = cluster.replica()
        let key = a.layer.valueKey(namespace: "notes", key: Array("k".utf8))
        let loads = Locked(0)
        let name = Array("notes:k".utf8)
        let future = SharedEnvelope(storedAtMilliseconds: 1_000_000, expiresAtMilliseconds: 2_000_000,
                                    staleUntilMilliseconds: 2_000_000, key: name, validator: "n-!", value: Array("!future".utf8))
        let absurd = SharedEnvelope(storedAtMilliseconds: 1_000_000, expiresAtMilliseconds: Int64.max - 1,
                                    staleUntilMilliseconds: Int64.max, key: name, validator: "n-x", value: Array("x".utf8))
        let junks: [[UInt8]] = [[UInt8(ascii: "E"), 4] + [UInt8](repeating: 0, count: 40), Array("garbage".utf8),
                                future.encoded ?? [], absurd.encoded ?? []]
        for junk in junks {
            a.store.purgeAll()
            try await cluster.backend.store(junk, at: key, ttlMilliseconds: 60_000)
            let served = try await a.notes().value(for: "k", load: noteLoader("v", calls: loads))
            #expect(served.outcome == .miss)
            #expect(try await cluster.envelope("k")?.value == Array("v".utf8))
        }
        #expect(loads.value == 4)
    }

    /// A purge deletes the namespace's shared values and reaches the other replica's L1.
    @Test func purgeReachesEveryReplica() async throws {
        let cluster = Cluster()
        let a = cluster.replica(), b = cluster.replica()
        await a.store.startSharedLayer()
        await b.store.startSharedLayer()
        let loads = Locked(0)
        _ = try await a.notes().value(for: "k", load: noteLoader("v", calls: loads))
        _ = try await a.notes("other").value(for: "k", load: noteLoader("o", calls: loads))
        _ = try await b.notes().value(for: "k", load: noteLoader("v", calls: loads))
        _ = try await b.notes("other").value(for: "k", load: noteLoader("o", calls: loads))
        #expect(b.notes().fresh("k") != nil)

        #expect(await a.store.purgeEverywhere(namespace: "notes") == .purged(deletedKeys: 1))
        #expect(b.notes().fresh("k") == nil)
        #expect(b.notes("other").fresh("k") != nil)
        #expect(try await cluster.envelope("k") == nil)
        #expect(try await cluster.envelope("k", in: "other") != nil)
        let c = cluster.replica()
        _ = try await c.notes("unused-by-a").value(for: "k", load: noteLoader("u", calls: loads))
        #expect(await a.store.purgeEverywhere(namespace: "unused-by-a") == .purged(deletedKeys: 1),
                "a namespace this replica never used is still purged in the shared layer")
        #expect(await Fixture().store.purgeEverywhere(namespace: "nope") == nil, "without a shared layer: unknown")

        #expect(await a.store.purgeAllEverywhere() == .purged(deletedKeys: 1))
        #expect(b.notes("other").fresh("k") == nil)
        #expect(cluster.backend.liveKeys.isEmpty)
    }

    /// After a gap (invalidations may have been lost) entries stop being fresh but keep their
    /// stale window: a key that is still shared is adopted again without an upstream call; one
    /// purged meanwhile is loaded again; a stale value stays servable meanwhile.
    @Test func gapExpiresL1AndKeepsStaleValues() async throws {
        let cluster = Cluster()
        let a = cluster.replica(), b = cluster.replica()
        await b.store.startSharedLayer()
        let loads = Locked(0)
        _ = try await a.notes().value(for: "kept", load: noteLoader("k1", ttl: 10, stale: 100, calls: loads))
        _ = try await a.notes().value(for: "purged", load: noteLoader("p1", ttl: 10, stale: 100, calls: loads))
        _ = try await b.notes().value(for: "kept", load: noteLoader("x", calls: loads))
        _ = try await b.notes().value(for: "purged", load: noteLoader("x", calls: loads))
        #expect(loads.value == 2)
        // Purged while B was disconnected: B never heard of it.
        _ = try await cluster.backend.deleteKeys(withPrefix: a.layer.valueKey(namespace: "notes", key: Array("purged".utf8)))
        cluster.at(1)
        cluster.backend.simulateGap()
        #expect(b.notes().fresh("kept") == nil)
        #expect(b.layer.stats().gaps == 1)

        let kept = try await b.notes().value(for: "kept", load: noteLoader("k2", ttl: 10, stale: 100, calls: loads))
        #expect(kept.outcome == .stale)
        #expect(await waitUntil { b.notes().fresh("kept") != nil }, "revalidated from L2")
        #expect(b.notes().fresh("kept")?.value == Note("k1"))
        #expect(b.notes().fresh("kept")?.ageSeconds == 1)
        #expect(loads.value == 2)

        #expect(try await b.notes().value(for: "purged", load: noteLoader("p2", ttl: 10, stale: 100, calls: loads)).value == Note("p1"))
        #expect(await waitUntil { b.notes().fresh("purged") != nil }, "reloaded")
        #expect(b.notes().fresh("purged")?.value == Note("p2"))
        #expect(loads.value == 3)
    }

    /// A waiter cancelled while another replica loads leaves at once; the lock is not its own.
    @Test func cancelledWaiterLeavesAtOnce() async throws {
        let cluster = Cluster(lockMilliseconds: 60_000)
        let b = cluster.replica()
        let lock = try await cluster.holdLock("k", token: "other", milliseconds: 60_000)
        let loads = Locked(0)
        let waiting = Task { try await b.notes().value(for: "k", load: noteLoader("v", calls: loads)) }
        #expect(await waitUntil { b.layer.stats().lockWaits == 1 }, "B waits")
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(await waitUntil { b.notes().stats().loadsInFlight == 0 }, "the flight ended")
        #expect(loads.value == 0)
        #expect(try await cluster.backend.releaseLock(lock, token: Array("other".utf8)))
    }

    /// Without the shared layer, or for types that cannot travel, nothing touches the backend.
    @Test func plainNamespacesNeverTouchTheSharedLayer() async throws {
        let cluster = Cluster()
        let a = cluster.replica()
        let payloads = a.store.namespace("plain", keyType: String.self, valueType: Payload.self)
        _ = try await payloads.value(for: "k", load: loader("v", calls: Locked(0)))
        #expect(cluster.backend.liveKeys.isEmpty)
        #expect(a.layer.stats() == SharedCacheStats())
    }
}
