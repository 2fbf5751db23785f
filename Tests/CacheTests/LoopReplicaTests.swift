import TestSupport
import Testing
@testable import Cache

/// `fresh(_:)` on an event loop: served from that loop's replica, without the store's lock,
/// and never anything the store would not serve (docs/cache.md "Share-nothing hits").
@Suite struct LoopReplicaTests {
    @Test func aRepeatedHitOnALoopTakesNoStoreLock() async throws {
        let f = Fixture()
        let ns = f.namespace()
        try await fill(ns, "a")
        #expect(await onEventLoop(0) { ns.fresh("a")?.value.text } == "a")  // copied into loop 0's replica
        // With the store's mutex held by another thread, the loop's next hit is still answered.
        let store = f.store
        let whileLocked = await whileHeldElsewhere({ hold in store.state.withLock { _ in hold() } }) {
            await onEventLoop(0) { ns.fresh("a")?.value.text }
        }
        #expect(whileLocked == "a", "a replica hit waited for the store's lock")
        #expect(ns.stats().hits == 2)
        #expect(f.store.auditViolations().isEmpty)
    }

    @Test func aReplicaHitLooksExactlyLikeAStoreHit() async throws {
        let f = Fixture()
        let ns = f.namespace()
        try await fill(ns, "a", ttl: 10)
        f.at(3)
        let fromStore = ns.fresh("a")
        let (first, second) = try #require(await onEventLoop(0) { (ns.fresh("a"), ns.fresh("a")) })
        for lookup in [first, second] {
            let lookup = try #require(lookup)
            #expect(lookup.value == fromStore?.value)
            #expect(lookup.validator == fromStore?.validator)
            #expect(lookup.ageSeconds == 3)
            #expect(lookup.freshnessLeftSeconds == 7)
            #expect(lookup.outcome == .hit)
            #expect(!lookup.collapsed)
            #expect(lookup.source == .memory)
        }
    }

    @Test func replicasNeverServeWhatTheStoreDropped() async throws {
        let f = Fixture()
        let ns = f.namespace()
        try await fill(ns, "a", text: "one", ttl: 10, stale: 100)
        #expect(await onEventLoop(0) { ns.fresh("a")?.value.text } == "one")

        // Purged: gone on the loop too.
        ns.purge()
        #expect(await onEventLoop(0) { ns.fresh("a") == nil } == true)
        try await fill(ns, "a", text: "two", ttl: 10, stale: 100)
        #expect(await onEventLoop(0) { ns.fresh("a")?.value.text } == "two")

        // Expired: nil on the loop, as from the store; the stale read's refresh replaces the value.
        f.at(11)
        #expect(await onEventLoop(0) { ns.fresh("a") == nil } == true)
        _ = try await ns.value(for: "a", load: loader("three", ttl: 10, stale: 100, calls: Locked(0)))
        #expect(await waitUntil { ns.stats().loadsInFlight == 0 })
        #expect(await onEventLoop(0) { ns.fresh("a")?.value.text } == "three")

        // Replaced while fresh (a purge and a new load): the loop sees the new value at once.
        #expect(await onEventLoop(1) { ns.fresh("a")?.value.text } == "three")
        f.store.purgeAll()
        try await fill(ns, "a", text: "four")
        #expect(await onEventLoop(0) { ns.fresh("a")?.value.text } == "four")
        #expect(await onEventLoop(1) { ns.fresh("a")?.value.text } == "four")
        #expect(f.store.auditViolations().isEmpty)
    }

    @Test func aSharedLayerResynchronizationEndsReplicatedFreshness() async throws {
        let cluster = Cluster()
        let replica = cluster.replica()
        let notes = replica.notes()
        _ = try await notes.value(for: "a", load: noteLoader("a", ttl: 10, stale: 100, calls: Locked(0)))
        #expect(await onEventLoop(0) { notes.fresh("a") != nil } == true)
        replica.store.resynchronizeShared()
        #expect(await onEventLoop(0) { notes.fresh("a") == nil } == true)
        #expect(replica.store.auditViolations().isEmpty)
    }

    @Test func evictionCountsReplicaHitsAsUses() async throws {
        let f = Fixture(maxEntries: 2)
        let ns = f.namespace()
        try await fill(ns, "a")
        #expect(await onEventLoop(0) { ns.fresh("a") != nil } == true)  // into the replica
        try await fill(ns, "b")  // b is now more recent than a in the store…
        #expect(await onEventLoop(0) { ns.fresh("a") != nil } == true)  // …until this replica hit is applied
        try await fill(ns, "c")
        #expect(ns.fresh("b") == nil, "b was the least recently used")
        #expect(ns.fresh("a") != nil)
        #expect(await onEventLoop(0) { ns.fresh("b") == nil } == true)
        #expect(f.store.auditViolations().isEmpty)
    }

    @Test func hitsOnEveryLoopAreCounted() async throws {
        let f = Fixture()
        let ns = f.namespace()
        try await fill(ns, "a")
        for loop in 0..<3 {
            #expect(await onEventLoop(loop) { (0..<4).filter { _ in ns.fresh("a") != nil }.count } == 4)
        }
        #expect(ns.fresh("a") != nil)
        #expect(ns.stats().hits == 13)
        #expect(f.store.stats()["rates"]?.hits == 13)
        // A miss on a loop counts nothing.
        #expect(await onEventLoop(0) { ns.fresh("nothing") == nil } == true)
        #expect(ns.stats().hits == 13)
        #expect(ns.stats().misses == 1)
    }

    @Test func anEvictedEntryLeavesEveryReplica() async throws {
        let f = Fixture(maxEntries: 3)
        let ns = f.namespace()
        for key in ["a", "b", "c"] { try await fill(ns, key) }
        let table = ns.table
        #expect(await onEventLoop(0) { ["a", "b", "c", "a"].allSatisfy { ns.fresh($0) != nil } } == true)
        #expect(table.replicas[0].snapshot.count == 3)
        try await fill(ns, "d")  // evicts b (a and c were used after it): out of the replica too
        #expect(table.replicas[0].snapshot.keys.sorted() == ["a", "c"])
        #expect(f.store.auditViolations().isEmpty)
    }

    @Test func aFullReplicaStartsOver() {
        let replica = LoopReplica<String, Payload>(capacity: 2)
        let entry = LoopReplica<String, Payload>.Entry(value: Payload(text: "x"), validator: "v", loadedAt: 0, expiresAt: 10)
        replica.insert("a", entry)
        replica.insert("b", entry)
        replica.insert("b", entry)  // a key it holds is replaced in place
        #expect(replica.snapshot.keys.sorted() == ["a", "b"])
        replica.insert("c", entry)
        #expect(replica.snapshot.keys.sorted() == ["c"])
        #expect(replica.hit("c", now: 1) != nil)
        #expect(replica.hit("c", now: 10) == nil)  // no longer fresh: dropped
        #expect(replica.snapshot.isEmpty)
        #expect(replica.takeTouched() == ["c"])
        #expect(replica.takeTouched().isEmpty)
    }

    /// The last key served is remembered with its entry's place in the dictionary and
    /// compared before hashing; every change to the replica forgets it, so a repeated hit
    /// never reads a removed, replaced or moved entry.
    @Test func theLastKeyServedNeverOutlivesAChange() {
        let replica = LoopReplica<String, Payload>(capacity: 64)
        func entry(_ text: String, expiresAt: Double = 10) -> LoopReplica<String, Payload>.Entry {
            .init(value: Payload(text: text), validator: "v-\(text)", loadedAt: 0, expiresAt: expiresAt)
        }
        replica.insert("a", entry("a1"))
        replica.insert("b", entry("b1"))
        #expect(replica.hit("a", now: 1)?.value.text == "a1")
        #expect(replica.hit("a", now: 1)?.value.text == "a1")  // the remembered key
        #expect(replica.hit("b", now: 1)?.validator == "v-b1")  // another key: looked up by hash
        // Replaced: the new value, its validator and times.
        replica.insert("b", entry("b2", expiresAt: 20))
        #expect(replica.hit("b", now: 15)?.value.text == "b2")
        #expect(replica.hit("b", now: 15)?.freshnessLeftSeconds == 5)
        // Removed: gone, though it was the last key served.
        replica.remove("b")
        #expect(replica.hit("b", now: 1) == nil)
        #expect(replica.hit("a", now: 1)?.value.text == "a1")
        // Moved: the dictionary grows and rehashes; every key still finds its own entry.
        for index in 0..<40 { replica.insert("k\(index)", entry("k\(index)")) }
        #expect(replica.hit("a", now: 1)?.value.text == "a1")
        for index in 0..<40 { #expect(replica.hit("k\(index)", now: 1)?.value.text == "k\(index)") }
        // A use is still noted once per entry after the store took the uses, and expiry is exact.
        _ = replica.takeTouched()
        #expect(replica.hit("a", now: 1) != nil)
        #expect(replica.hit("a", now: 1) != nil)
        #expect(replica.takeTouched() == ["a"])
        #expect(replica.hit("a", now: 10) == nil)
        #expect(replica.hit("a", now: 1) == nil)
        replica.removeAll()
        #expect(replica.hit("k0", now: 1) == nil)
        #expect(replica.hits == 49)
    }
}
