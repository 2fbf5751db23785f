import Cache
import Synchronization
import Testing
import TestSupport
@testable import Redis

/// The cache's shared layer over a real `redis-server`: two `CacheStore`s, each with its own
/// Redis connections, are two replicas (the logic itself is unit-tested over the in-memory fake
/// in CacheTests; this proves the Redis backend carries it).
@Suite(.timeLimit(.minutes(5)), .enabled(if: RedisServerProcess.isInstalled, "redis-server is not installed (make test installs it)"))
struct SharedLayerOverRedisTests {
    typealias Note = SharedText

    final class Loads: Sendable {
        private let count = Mutex(0)
        func load(_ text: String) -> @Sendable () async throws -> CacheLoad<Note> {
            {
                self.count.withLock { $0 += 1 }
                try await Task.sleep(nanoseconds: 50_000_000)
                return CacheLoad(value: Note(text), ttlSeconds: 60, staleSeconds: 60)
            }
        }
        var value: Int { count.withLock { $0 } }
    }

    static func replica(_ server: RedisServerProcess, timeoutMilliseconds: Int = 2_000) throws -> (CacheStore, RedisSharedCacheBackend) {
        let backend = RedisSharedCacheBackend(client: RedisClient(configuration: RedisConfiguration(
            url: try RedisURL(parsing: server.url), timeoutMilliseconds: timeoutMilliseconds,
            reconnectInitialDelayMilliseconds: 20, reconnectMaximumDelayMilliseconds: 100)))
        let layer = SharedCacheLayer(backend: backend, settings: .init(keyPrefix: Array("it:".utf8), lockMilliseconds: 10_000),
                                     availability: { backend.client.isAvailable })
        return (CacheStore(limits: CacheLimits(), shared: layer), backend)
    }

    @Test func replicasShareOneLoadAndPurges() async throws {
        let server = try await RedisServerProcess.start()
        let (a, backendA) = try Self.replica(server)
        let (b, backendB) = try Self.replica(server)
        await a.startSharedLayer()
        await b.startSharedLayer()
        let loads = Loads()
        let notesA = a.namespace("notes", keyType: String.self, valueType: Note.self)
        let notesB = b.namespace("notes", keyType: String.self, valueType: Note.self)

        // Concurrent cold misses on both replicas: one upstream load for the cluster.
        async let fromA = notesA.value(for: "k", load: loads.load("v"))
        async let fromB = notesB.value(for: "k", load: loads.load("v"))
        let (answerA, answerB) = try await (fromA, fromB)
        #expect(loads.value == 1)
        #expect(answerA.validator == answerB.validator)
        #expect(Set([answerA.source, answerB.source]) == [.memory, .shared])
        #expect(a.shared?.isAvailable == true)

        // A purge on A reaches B's memory through Redis pub/sub, and Redis itself.
        #expect(await a.purgeEverywhere(namespace: "notes") == .purged(deletedKeys: 1))
        #expect(await waitUntil { notesB.fresh("k") == nil }, "B dropped its copy")
        #expect(try await backendA.client.get("it:c1:notes:k") == nil)
        _ = try await notesB.value(for: "k", load: loads.load("v2"))
        #expect(loads.value == 2)
        #expect(try await notesA.value(for: "k", load: loads.load("x")).value.text == "v2")

        await backendA.shutdown()
        await backendB.shutdown()
        await server.stop()
    }

    /// A stalled Redis (SIGSTOP: connections accepted, nothing answered) costs a miss one call
    /// timeout, then the value is loaded from upstream as without Redis; resumed, Redis is used
    /// again.
    @Test func aStalledRedisIsSkippedWithinItsTimeout() async throws {
        let server = try await RedisServerProcess.start()
        let (store, backend) = try Self.replica(server, timeoutMilliseconds: 100)
        let loads = Loads()
        let notes = store.namespace("notes", keyType: String.self, valueType: Note.self)
        _ = try await notes.value(for: "warm", load: loads.load("w"))
        #expect(store.shared?.isAvailable == true)

        server.pause()
        let served = try await notes.value(for: "cold", load: loads.load("c"))
        #expect(served.outcome == .miss && served.value.text == "c")
        #expect(loads.value == 2)
        #expect((store.shared?.stats().errors ?? 0) >= 1)
        #expect(await waitUntil { store.shared?.isAvailable == false }, "reported down")

        server.resume()
        #expect(await waitUntil { store.shared?.isAvailable == true }, "reported up again")
        _ = try await notes.value(for: "later", load: loads.load("l"))
        #expect(await waitUntil { (try? await backend.client.get("it:c1:notes:later")) != nil }, "stored in Redis again")
        await backend.shutdown()
        await server.stop()
    }
}
