import Foundation
import HTTPClientTestSupport
import Redis
import Synchronization
import Testing
import TestSupport
@testable import Almanac

extension FullStackTests.Binary.RedisSentinel {
    /// How many `READONLY` errors `server` has answered (`INFO errorstats`), or nil.
    static func readOnlyReplies(_ server: RedisClient) async -> Int? {
        guard let reply = try? await server.send(RedisCommand("INFO", "errorstats")),
              let bytes = reply.stringBytes else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let line = text.split(whereSeparator: \.isNewline).first(where: { $0.hasPrefix("errorstat_READONLY:") }) else { return 0 }
        return line.split(separator: "=").last.flatMap { Int($0) }
    }

    /// The primary almanac uses becomes a replica behind its back (`REPLICAOF`, no failover,
    /// no `+switch-master`; the sentinel is simply told the other server is the primary now):
    /// almanac's next write there meets `READONLY`, and almanac asks the sentinel again, moves
    /// to the new primary, shares values through it, and sends the old one no more writes.
    @Test func aReadOnlyReplyMakesAlmanacFindThePrimaryAgainAndNeverWriteToTheReplica() async throws {
        let otherServer = Mutex<RedisServerProcess?>(nil)
        let sentinelProcess = Mutex<RedisSentinelProcess?>(nil)
        let clients = Mutex<[RedisClient]>([])
        var failure: (any Error)?
        do {
            try await Cluster.run(size: 2, script: { stub in
                FullStackFixtures.scriptAll(stub)
                stub.route(FullStackFixtures.googlePath) { FreshISBN.google($0) }
            }, startRedis: {
                let primary = try await RedisServerProcess.start()
                let replica = try await RedisServerProcess.start(arguments: ["--replicaof", "127.0.0.1", String(primary.port)])
                otherServer.withLock { $0 = replica }
                // Quorum 1 and a down-after far beyond the test: this sentinel never fails over
                // by itself; the test moves the primary.
                let sentinel = try await RedisSentinelProcess.start(
                    masterName: Self.masterName, primaryPort: primary.port, quorum: 1,
                    downAfterMilliseconds: 600_000, failoverTimeoutMilliseconds: 600_000)
                sentinelProcess.withLock { $0 = sentinel }
                return primary
            }, redisEnvironment: { _ in
                [
                    "ALMANAC_CACHE_REDIS_URL": "",
                    "ALMANAC_CACHE_REDIS_SENTINELS": sentinelProcess.withLock { $0 }.map(\.address) ?? "",
                    "ALMANAC_CACHE_REDIS_MASTER_NAME": Self.masterName,
                ]
            }) { cluster in
                let replica = try #require(otherServer.withLock { $0 })
                let sentinel = try #require(sentinelProcess.withLock { $0 })
                let oldPrimary = "127.0.0.1:\(cluster.redis.port)"
                let newPrimary = "127.0.0.1:\(replica.port)"
                func client(_ port: Int) -> RedisClient {
                    let made = RedisClient(configuration: RedisConfiguration(url: RedisURL(host: "127.0.0.1", port: port),
                                                                             timeoutMilliseconds: 5_000))
                    clients.withLock { $0.append(made) }
                    return made
                }
                let toOld = client(cluster.redis.port), toNew = client(replica.port), toSentinel = client(sentinel.port)
                #expect(await waitUntil(timeout: 30) {
                    for index in 0..<cluster.size where await Self.primaryInUse(cluster, index) != oldPrimary { return false }
                    return true
                }, "both replicas use the primary the sentinel names")
                #expect(await Self.readOnlyReplies(toOld) == 0)

                // The roles swap; the sentinel names the new primary but announces nothing.
                _ = try await toNew.send(RedisCommand("REPLICAOF", "NO", "ONE"))
                _ = try await toSentinel.send(RedisCommand("SENTINEL", "REMOVE", Self.masterName))
                _ = try await toSentinel.send(RedisCommand("SENTINEL", "MONITOR", Self.masterName, "127.0.0.1",
                                                           String(replica.port), "1"))
                _ = try await toOld.send(RedisCommand("REPLICAOF", "127.0.0.1", String(replica.port)))
                #expect(await Self.primary(according: toSentinel) == newPrimary)

                // Each replica's next write (a cold key's) reaches the old primary, now a replica:
                // READONLY, so it asks the sentinel again. The client is answered regardless.
                for index in 0..<cluster.size {
                    #expect(try await cluster.get(index, "/v1/books/\(FreshISBN.next())").status == 200)
                }
                let moved = await waitUntil(timeout: 30) {
                    for index in 0..<cluster.size where await Self.primaryInUse(cluster, index) != newPrimary { return false }
                    return true
                }
                #expect(moved, "both replicas found the new primary: \(cluster.stdout(0).suffix(2000))")
                let refused = await Self.readOnlyReplies(toOld) ?? -1
                #expect((1...8).contains(refused), "the old primary refused a few writes: \(refused)")

                // Values are shared through the new primary, and the old one gets no more writes.
                let isbn = FreshISBN.next()
                let first = try await cluster.get(0, "/v1/books/\(isbn)")
                #expect(first.status == 200)
                let shared = try await cluster.get(1, "/v1/books/\(isbn)")
                #expect(shared.header("Cache-Status") == "almanac; hit; detail=redis", "replica 1 answers replica 0's value from Redis")
                #expect(shared.body == first.body)
                #expect(FreshISBN.googleRequests(cluster.stub, isbn) == 1)
                for index in 0..<cluster.size {
                    #expect(try await cluster.get(index, "/v1/books/\(FreshISBN.next())").status == 200)
                }
                #expect(await Self.readOnlyReplies(toOld) == refused, "no write reached the old primary once it was a replica")
                let metrics = try await cluster.get(1, "/metrics").text
                #expect(metrics.contains("almanac_cache_l2_primary{address=\"\(newPrimary)\"} 1"))
            }
        } catch {
            failure = error
        }
        await Self.stop(clients: clients.withLock { $0 }, sentinels: sentinelProcess.withLock { $0 }.map { [$0] } ?? [],
                        servers: otherServer.withLock { $0 }.map { [$0] } ?? [], after: failure)
        if let failure { throw failure }
    }
}
