import TestSupport
import Testing
@testable import Cache

/// RFC 9211 `collapsed`: of the misses one load answers, only the caller that started it is not
/// collapsed; everyone who joined it (a foreground load or a background refresh) is.
@Suite struct CollapsedTests {
    @Test func theLeaderIsNotCollapsedItsFollowersAre() async throws {
        let f = Fixture()
        let ns = f.namespace()
        let gate = Gate()
        let calls = Locked(0)
        let load = loader("cold", gate: gate, calls: calls)
        let leader = Task { try await ns.value(for: "k", load: load) }
        #expect(await waitUntil { gate.arrived == 1 }, "the leader's load started")
        let followers = (0..<20).map { _ in Task { try await ns.value(for: "k", load: load) } }
        #expect(await waitUntil { ns.stats().misses == 21 }, "every follower waiting")
        gate.open()

        let led = try await leader.value
        #expect(led.outcome == .miss)
        #expect(!led.collapsed)
        for follower in followers {
            let lookup = try await follower.value
            #expect(lookup.outcome == .miss)
            #expect(lookup.collapsed)
            #expect(lookup.value.text == "cold")
            #expect(lookup.validator == led.validator)
        }
        #expect(calls.value == 1)
        // What comes after the load is a hit, never collapsed.
        let hit = try await ns.value(for: "k", load: load)
        #expect(hit.outcome == .hit && !hit.collapsed)
        #expect(ns.fresh("k")?.collapsed == false)
    }

    @Test func exactlyOneOfManyConcurrentMissesIsNotCollapsed() async throws {
        let f = Fixture()
        let ns = f.namespace()
        let gate = Gate()
        let calls = Locked(0)
        let load = loader("cold", gate: gate, calls: calls)
        let callers = 500
        try await withThrowingTaskGroup(of: CacheLookup<Payload>.self) { group in
            for _ in 0..<callers { group.addTask { try await ns.value(for: "k", load: load) } }
            #expect(await waitUntil { ns.stats().misses == UInt64(callers) }, "all callers waiting")
            gate.open()
            var leaders = 0, followers = 0
            for try await lookup in group {
                #expect(lookup.outcome == .miss)
                if lookup.collapsed { followers += 1 } else { leaders += 1 }
            }
            #expect(leaders == 1)
            #expect(followers == callers - 1)
        }
        #expect(calls.value == 1)
    }

    /// A cancelled leader leaves at once and its load goes on for the others (it is cancelled only
    /// when the last waiter goes). The upstream request was still made for the leader, so those
    /// who remain are answered as followers: every answer that load produces is collapsed.
    @Test func followersOfACancelledLeaderStayCollapsed() async throws {
        let f = Fixture()
        let ns = f.namespace()
        let gate = Gate()
        let calls = Locked(0)
        let load = loader("shared", gate: gate, calls: calls)
        let leader = Task { try await ns.value(for: "k", load: load) }
        #expect(await waitUntil { gate.arrived == 1 }, "the leader's load started")
        let followers = (0..<3).map { _ in Task { try await ns.value(for: "k", load: load) } }
        #expect(await waitUntil { ns.stats().misses == 4 }, "every follower waiting")

        leader.cancel()
        await #expect(throws: CancellationError.self) { try await leader.value }
        #expect(ns.stats().loadsInFlight == 1)

        gate.open()
        for follower in followers {
            let lookup = try await follower.value
            #expect(lookup.outcome == .miss)
            #expect(lookup.collapsed)
            #expect(lookup.value.text == "shared")
        }
        #expect(calls.value == 1)
    }

    /// When every waiter left, the load is abandoned: the next caller starts (and leads) a new one.
    @Test func aLoadAfterAnAbandonedOneHasANewLeader() async throws {
        let f = Fixture()
        let ns = f.namespace()
        let gate = Gate()
        let abandoned = Task { try await ns.value(for: "k", load: loader("never", gate: gate, calls: Locked(0))) }
        #expect(await waitUntil { gate.arrived == 1 }, "the first load started")
        abandoned.cancel()
        await #expect(throws: CancellationError.self) { try await abandoned.value }

        let next = try await ns.value(for: "k", load: loader("again", calls: Locked(0)))
        #expect(next.outcome == .miss)
        #expect(!next.collapsed)
        #expect(next.value.text == "again")
        gate.open()
        #expect(await waitUntil { ns.stats().loadsInFlight == 0 }, "the abandoned load finished")
    }

    /// A background refresh has no waiter of its own: the stale reader that triggered it is
    /// answered at once (STALE, not collapsed), and a miss that joins the refresh once the entry
    /// is past its stale window is a follower.
    @Test func aMissThatJoinsABackgroundRefreshIsCollapsed() async throws {
        let f = Fixture()
        let ns = f.namespace()
        try await fill(ns, "k", text: "old", ttl: 10, stale: 5)
        let gate = Gate()
        let calls = Locked(0)

        f.at(12)
        let stale = try await ns.value(for: "k", load: loader("refreshed", gate: gate, calls: calls))
        #expect(stale.outcome == .stale && !stale.collapsed)
        #expect(await waitUntil { gate.arrived == 1 }, "the refresh started")

        f.at(20)  // past the stale window, refresh still running
        let joiner = Task { try await ns.value(for: "k", load: loader("second load", calls: calls)) }
        #expect(await waitUntil { ns.stats().misses == 2 }, "the miss waiting on the refresh")
        gate.open()
        let joined = try await joiner.value
        #expect(joined.outcome == .miss)
        #expect(joined.collapsed)
        #expect(joined.value.text == "refreshed")
        #expect(calls.value == 1)
    }

    @Test func aMissWithNoOneElseWaitingIsNotCollapsed() async throws {
        let f = Fixture()
        let ns = f.namespace()
        let lookup = try await fill(ns, "k")
        #expect(lookup.outcome == .miss)
        #expect(!lookup.collapsed)
    }
}
