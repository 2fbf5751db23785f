import Cache
import Synchronization
import Testing
import TestSupport
@testable import Redis

/// One contract, two implementations: the in-process fake the cache's unit tests will use, and
/// the Redis backend against a real `redis-server`. If the fake drifts from Redis, this fails.
@Suite(.timeLimit(.minutes(5))) struct SharedCacheBackendContractTests {
    enum Kind: String, CaseIterable, Sendable { case inMemory, redis }

    /// A backend plus the few things the contract cannot express through the protocol.
    final class Subject: @unchecked Sendable {
        let backend: any SharedCacheBackend
        let clock: ManualCacheClock?
        let server: RedisServerProcess?
        let redis: RedisClient?
        /// Expiry used by the tests: exact on the fake, long enough on a shared CPU for Redis.
        let ttl: Int

        init(_ kind: Kind) async throws {
            switch kind {
            case .inMemory:
                let clock = ManualCacheClock()
                self.clock = clock
                backend = InMemorySharedCacheBackend(clock: clock)
                server = nil
                redis = nil
                ttl = 100
            case .redis:
                let server = try await RedisServerProcess.start(arguments: ["--requirepass", "contract-pw"])
                let client = RedisClient(configuration: RedisConfiguration(
                    url: try RedisURL(parsing: "redis://:contract-pw@127.0.0.1:\(server.port)"), timeoutMilliseconds: 2_000,
                    reconnectInitialDelayMilliseconds: 20, reconnectMaximumDelayMilliseconds: 100))
                self.server = server
                clock = nil
                redis = client
                backend = RedisSharedCacheBackend(client: client)
                ttl = 800
            }
        }

        /// After `ttl` has passed, `condition` holds: at once on the fake's clock, within a
        /// deadline in real time on Redis.
        func afterExpiry(_ what: String, _ condition: () async throws -> Bool) async throws {
            if let clock {
                clock.advance(by: Double(ttl) / 1000)
                #expect(try await condition(), "\(what)")
                return
            }
            let deadline = TestDeadline(seconds: 10)
            var nap: UInt64 = 10_000_000
            while try await !condition() { try await deadline.pause(what, nap: &nap) }
        }

        func close() async {
            await (backend as? RedisSharedCacheBackend)?.shutdown()
            await server?.stop()
        }
    }

    static func subject(_ kind: Kind) async throws -> Subject {
        let subject = try await Subject(kind)
        try await subject.redis?.ping()
        return subject
    }

    static var kinds: [Kind] { RedisServerProcess.isInstalled ? Kind.allCases : [.inMemory] }

    func b(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test(arguments: kinds)
    func valuesAreStoredReplacedAndExpire(_ kind: Kind) async throws {
        let s = try await Self.subject(kind)
        let backend = s.backend
        #expect(try await backend.value(at: b("almanac:rates:USD")) == nil)
        try await backend.store([0, 1, 255], at: b("almanac:rates:USD"), ttlMilliseconds: 60_000)
        #expect(try await backend.value(at: b("almanac:rates:USD")) == [0, 1, 255])
        try await backend.store(b("v2"), at: b("almanac:rates:USD"), ttlMilliseconds: s.ttl)
        #expect(try await backend.value(at: b("almanac:rates:USD")) == b("v2"))
        try await s.afterExpiry("the value to expire") { try await backend.value(at: b("almanac:rates:USD")) == nil }
        await s.close()
    }

    @Test(arguments: kinds)
    func locksHaveOneOwnerAndOnlyTheOwnerReleases(_ kind: Kind) async throws {
        let s = try await Self.subject(kind)
        let backend = s.backend
        let lock = b("almanac:lock:rates:USD")
        #expect(try await backend.acquireLock(lock, token: b("replica-a"), ttlMilliseconds: 60_000))
        #expect(try await backend.acquireLock(lock, token: b("replica-b"), ttlMilliseconds: 60_000) == false)
        #expect(try await backend.releaseLock(lock, token: b("replica-b")) == false)
        #expect(try await backend.acquireLock(lock, token: b("replica-c"), ttlMilliseconds: 60_000) == false)
        #expect(try await backend.releaseLock(lock, token: b("replica-a")))
        #expect(try await backend.releaseLock(lock, token: b("replica-a")) == false)
        // A holder that dies: its lock expires, the next one takes it, and the late original
        // owner's release leaves the new holder's lock alone.
        #expect(try await backend.acquireLock(lock, token: b("replica-a"), ttlMilliseconds: s.ttl))
        try await s.afterExpiry("the lock to expire") {
            try await backend.acquireLock(lock, token: b("replica-b"), ttlMilliseconds: 60_000)
        }
        #expect(try await backend.releaseLock(lock, token: b("replica-a")) == false)
        #expect(try await backend.acquireLock(lock, token: b("replica-c"), ttlMilliseconds: 60_000) == false)
        #expect(try await backend.releaseLock(lock, token: b("replica-b")))
        await s.close()
    }

    @Test(arguments: kinds)
    func deletionByPrefixTakesExactlyThePrefixEvenWithPatternCharacters(_ kind: Kind) async throws {
        let s = try await Self.subject(kind)
        let backend = s.backend
        let prefix = "almanac:b*o?o[k]s\\:"
        for i in 0..<1_200 { try await backend.store(b("v"), at: b("\(prefix)\(i)"), ttlMilliseconds: 60_000) }
        // Keys a glob would match if the prefix were not escaped.
        for other in ["almanac:bXoYoks\\:1", "almanac:bxoxok\\:2", "almanac:rates:USD", "almanac:b*o?o[k]s"] {
            try await backend.store(b("keep"), at: b(other), ttlMilliseconds: 60_000)
        }
        #expect(try await backend.deleteKeys(withPrefix: b(prefix)) == 1_200)
        #expect(try await backend.value(at: b("\(prefix)7")) == nil)
        for other in ["almanac:bXoYoks\\:1", "almanac:bxoxok\\:2", "almanac:rates:USD", "almanac:b*o?o[k]s"] {
            #expect(try await backend.value(at: b(other)) == b("keep"), "\(other)")
        }
        #expect(try await backend.deleteKeys(withPrefix: b(prefix)) == 0)
        await s.close()
    }

    @Test(arguments: kinds)
    func aPublishedMessageReachesSubscribersAndALostConnectionIsReportedAsAGap(_ kind: Kind) async throws {
        let s = try await Self.subject(kind)
        let received = Mutex<[[UInt8]]>([])
        let gaps = Mutex(0)
        let channel = b("almanac:invalidate")
        try await s.backend.subscribe(to: channel, onMessage: { message in received.withLock { $0.append(message) } },
                                      onGap: { gaps.withLock { $0 += 1 } })
        let gapsAtStart = gaps.withLock { $0 }
        try await s.backend.publish(b("rates"), on: channel)
        try await s.backend.publish(b("nobody listens"), on: b("almanac:elsewhere"))
        #expect(await waitUntil(timeout: 10) { received.withLock { $0 } == [b("rates")] }, "the message")
        // The connection to the store is lost and comes back: a gap, then messages again.
        if let fake = s.backend as? InMemorySharedCacheBackend {
            fake.simulateGap()
        } else if let server = s.server {
            await server.kill()
            try await server.launch()
        }
        #expect(await waitUntil(timeout: 10) { gaps.withLock { $0 } > gapsAtStart }, "the gap")
        #expect(await waitUntil(timeout: 10) {
            try? await s.backend.publish(b("books"), on: channel)
            return received.withLock { $0.last } == b("books")
        }, "a message after the gap")
        await s.close()
    }

    @Test(arguments: kinds)
    func aStoreThatIsDownFailsEveryCallAsUnavailableWithoutTheSecret(_ kind: Kind) async throws {
        let s = try await Self.subject(kind)
        if let fake = s.backend as? InMemorySharedCacheBackend {
            fake.setUnavailable("down for the test")
        } else {
            await s.server?.kill()
        }
        let calls: [(String, () async throws(SharedCacheUnavailable) -> Void)] = [
            ("value", { () async throws(SharedCacheUnavailable) in _ = try await s.backend.value(at: self.b("k")) }),
            ("store", { () async throws(SharedCacheUnavailable) in try await s.backend.store(self.b("v"), at: self.b("k"), ttlMilliseconds: 10) }),
            ("acquireLock", { () async throws(SharedCacheUnavailable) in _ = try await s.backend.acquireLock(self.b("l"), token: self.b("t"), ttlMilliseconds: 10) }),
            ("releaseLock", { () async throws(SharedCacheUnavailable) in _ = try await s.backend.releaseLock(self.b("l"), token: self.b("t")) }),
            ("deleteKeys", { () async throws(SharedCacheUnavailable) in _ = try await s.backend.deleteKeys(withPrefix: self.b("p")) }),
            ("publish", { () async throws(SharedCacheUnavailable) in try await s.backend.publish(self.b("m"), on: self.b("c")) }),
        ]
        for (name, call) in calls {
            do {
                try await call()
                Issue.record("\(name) succeeded against a store that is down")
            } catch {
                #expect(!error.reason.isEmpty)
                #expect(!error.description.contains("contract-pw"), "\(name): \(error)")
            }
        }
        await s.close()
    }

    @Test func globEscapingMakesEveryPatternCharacterLiteral() {
        #expect(RedisSharedCacheBackend.globEscaped(Array("a*b?c[d]e\\f".utf8)) == Array("a\\*b\\?c\\[d\\]e\\\\f".utf8))
        #expect(RedisSharedCacheBackend.globEscaped([]) == [])
    }
}
