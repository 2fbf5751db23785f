import TestSupport
import Testing
@testable import Cache

@Suite struct SingleFlightTests {
    @Test func thousandConcurrentCallersShareOneLoad() async throws {
        let f = Fixture()
        let ns = f.namespace()
        let gate = Gate()
        let calls = Locked(0)
        let load = loader("cold", gate: gate, calls: calls)
        try await withThrowingTaskGroup(of: CacheLookup<Payload>.self) { group in
            for _ in 0..<1_000 { group.addTask { try await ns.value(for: "k", load: load) } }
            #expect(await waitUntil { ns.stats().misses == 1_000 }, "all callers waiting")
            gate.open()
            var count = 0
            for try await lookup in group {
                #expect(lookup.outcome == .miss)
                #expect(lookup.value.text == "cold")
                count += 1
            }
            #expect(count == 1_000)
        }
        #expect(calls.value == 1)
        let stats = ns.stats()
        #expect(stats.loadsInFlight == 0)
        #expect(stats.entries == 1)
        #expect(try await ns.value(for: "k", load: load).outcome == .hit)
    }

    @Test func errorIsSharedByAllWaitersAndNotCached() async throws {
        let f = Fixture()
        let ns = f.namespace()
        let gate = Gate()
        let calls = Locked(0)
        let failing: @Sendable () async throws -> CacheLoad<Payload> = {
            calls.increment()
            await gate.wait()
            throw TestFailure(code: 7)
        }
        await withTaskGroup(of: (any Error)?.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    do {
                        _ = try await ns.value(for: "k", load: failing)
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            #expect(await waitUntil { ns.stats().misses == 50 }, "all callers waiting")
            gate.open()
            for await error in group {
                #expect(error as? TestFailure == TestFailure(code: 7))
            }
        }
        #expect(calls.value == 1)
        #expect(ns.stats().entries == 0)
        let ok = Locked(0)
        #expect(try await ns.value(for: "k", load: loader("fine", calls: ok)).outcome == .miss)
        #expect(ok.value == 1)
    }

    @Test func distinctKeysLoadIndependently() async throws {
        let f = Fixture()
        let ns = f.namespace()
        let calls = Locked(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<20 {
                group.addTask { _ = try await ns.value(for: "k\(i % 5)", load: loader("v", calls: calls)) }
            }
            try await group.waitForAll()
        }
        #expect(calls.value >= 5)
        #expect(ns.stats().entries == 5)
    }

    @Test func cancellingOneWaiterLeavesTheLoadToOthers() async throws {
        let f = Fixture()
        let ns = f.namespace()
        let gate = Gate()
        let calls = Locked(0)
        let load = loader("shared", gate: gate, calls: calls)
        let quitter = Task { try await ns.value(for: "k", load: load) }
        let stayers = (0..<3).map { _ in Task { try await ns.value(for: "k", load: load) } }
        #expect(await waitUntil { ns.stats().misses == 4 }, "all four waiting")

        quitter.cancel()
        // Prompt: the quitter gets CancellationError while the load is still blocked.
        await #expect(throws: CancellationError.self) { try await quitter.value }
        #expect(ns.stats().loadsInFlight == 1)

        gate.open()
        for stayer in stayers {
            #expect(try await stayer.value.value.text == "shared")
        }
        #expect(calls.value == 1)
        #expect(ns.fresh("k")?.value.text == "shared")
    }

    @Test func cancellingAllWaitersCancelsTheLoad() async throws {
        let f = Fixture()
        let ns = f.namespace()
        let observedCancellation = Locked(0)
        let started = Locked(0)
        let load: @Sendable () async throws -> CacheLoad<Payload> = {
            started.increment()
            do {
                try await Task.sleep(for: .seconds(3_600))  // ends only by cancellation
            } catch {
                observedCancellation.increment()
                throw error
            }
            return CacheLoad(value: Payload(text: "never"), ttlSeconds: 10, staleSeconds: 0)
        }
        let waiters = (0..<3).map { _ in Task { try await ns.value(for: "k", load: load) } }
        #expect(await waitUntil { ns.stats().misses == 3 && started.value == 1 }, "all waiting")
        for waiter in waiters { waiter.cancel() }
        for waiter in waiters {
            await #expect(throws: CancellationError.self) { try await waiter.value }
        }
        #expect(await waitUntil { observedCancellation.value == 1 }, "load observed cancellation")
        #expect(await waitUntil { ns.stats().loadsInFlight == 0 }, "load finished")
        #expect(ns.stats().entries == 0)

        // The next caller starts a fresh load.
        let calls = Locked(0)
        #expect(try await ns.value(for: "k", load: loader("again", calls: calls)).value.text == "again")
        #expect(calls.value == 1)
    }

    @Test func alreadyCancelledCallerStartsNoLoad() async throws {
        let f = Fixture()
        let ns = f.namespace()
        let calls = Locked(0)
        let gate = Gate()
        let task = Task {
            await gate.wait()
            return try await ns.value(for: "k", load: loader("x", calls: calls))
        }
        task.cancel()
        gate.open()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(calls.value == 0)
        #expect(ns.stats().loadsInFlight == 0)
    }

    @Test func cancelledCallerStillGetsFreshHits() async throws {
        let f = Fixture()
        let ns = f.namespace()
        try await fill(ns, "k")
        let gate = Gate()
        let task = Task {
            await gate.wait()
            return try await ns.value(for: "k", load: loader("x", calls: Locked(0)))
        }
        task.cancel()
        gate.open()
        #expect(try await task.value.outcome == .hit)
    }
}
