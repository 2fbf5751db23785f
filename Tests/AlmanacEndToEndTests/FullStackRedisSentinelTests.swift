import Foundation
import HTTPClientTestSupport
import Redis
import Synchronization
import Testing
import TestSupport
@testable import Almanac

extension FullStackTests.Binary {
    /// Three real almanac processes on a Redis primary with one replica, behind three real
    /// `redis-sentinel` processes (short timeouts: down after 1 s), all on loopback and stopped
    /// by PID. The primary is SIGKILLed under load.
    @Suite(.enabled(if: RedisServerProcess.isInstalled && RedisSentinelProcess.executablePath != nil,
                    "redis-server or redis-sentinel is not installed (make test-deps installs them)"))
    struct RedisSentinel {
        static let masterName = "almanac-test"

        /// The primary as `sentinel` names it (`host:port`), or nil.
        static func primary(according sentinel: RedisClient) async -> String? {
            guard let reply = try? await sentinel.send(RedisCommand("SENTINEL", "get-master-addr-by-name", masterName)),
                  let parts = reply.elements, parts.count == 2,
                  let host = parts[0].stringBytes, let port = parts[1].stringBytes else { return nil }
            return String(decoding: host, as: UTF8.self) + ":" + String(decoding: port, as: UTF8.self)
        }

        /// How many replicas and other sentinels `sentinel` knows for the master.
        static func known(by sentinel: RedisClient) async -> (replicas: Int, sentinels: Int) {
            let replicas = (try? await sentinel.send(RedisCommand("SENTINEL", "replicas", masterName)))?.elements?.count ?? 0
            let sentinels = (try? await sentinel.send(RedisCommand("SENTINEL", "sentinels", masterName)))?.elements?.count ?? 0
            return (replicas, sentinels)
        }

        /// Plain RESP clients of `sentinels`, for the test's own questions.
        static func clients(of sentinels: [RedisSentinelProcess]) -> [RedisClient] {
            sentinels.map { sentinel in
                RedisClient(configuration: RedisConfiguration(url: RedisURL(host: "127.0.0.1", port: sentinel.port),
                                                              timeoutMilliseconds: 2_000))
            }
        }

        /// Waits (60 s at most) until every sentinel knows the replica and the other sentinels,
        /// which a failover needs; records what each knows when they do not.
        static func expectSettled(_ asking: [RedisClient], sourceLocation: SourceLocation = #_sourceLocation) async {
            let settled = await waitUntil(timeout: 60) {
                for client in asking {
                    let known = await Self.known(by: client)
                    guard known.replicas == 1, known.sentinels == asking.count - 1 else { return false }
                }
                return true
            }
            guard !settled else { return }
            var seen: [String] = []
            for client in asking { seen.append("\(await Self.known(by: client))") }
            Issue.record("the sentinels did not find the replica and each other: \(seen)", sourceLocation: sourceLocation)
        }

        /// Stops what a test started besides the cluster (which stops itself), whatever happened;
        /// after a `failure`, records the sentinels' logs.
        static func stop(clients: [RedisClient], sentinels: [RedisSentinelProcess], servers: [RedisServerProcess],
                         after failure: (any Error)?) async {
            for client in clients { await client.shutdown() }
            for sentinel in sentinels {
                if failure != nil { Issue.record("sentinel \(sentinel.port) log: \(sentinel.log.suffix(2000))") }
                await sentinel.stop()
            }
            for server in servers { await server.stop() }
        }

        /// `/readyz`'s `l2primary` of `replica`, when L2 is up.
        static func primaryInUse(_ cluster: Cluster, _ replica: Int) async -> String? {
            guard let ready = try? await cluster.get(replica, "/readyz"), ready.status == 200,
                  case .string("up")? = ready.json?["l2"], case let .string(primary)? = ready.json?["l2primary"] else { return nil }
            return primary
        }

        @Test func aFailoverUnderLoadFailsNoRequestAndTheNewPrimaryIsFoundQuickly() async throws {
            let replicaServer = Mutex<RedisServerProcess?>(nil)
            let sentinels = Mutex<[RedisSentinelProcess]>([])
            let clients = Mutex<[RedisClient]>([])
            let coldISBN = FreshISBN.next()
            let coldGate = ThreadGate(limit: 30)
            var failure: (any Error)?
            do {
                try await Cluster.run(size: 3, script: { stub in
                    FullStackFixtures.scriptAll(stub)
                    stub.route(FullStackFixtures.googlePath) { FreshISBN.google($0) }
                    stub.route(FullStackFixtures.googleTarget(coldISBN)) { request in
                        coldGate.wait()
                        return FreshISBN.google(request)
                    }
                }, startRedis: {
                    let primary = try await RedisServerProcess.start()
                    let replica = try await RedisServerProcess.start(arguments: ["--replicaof", "127.0.0.1", String(primary.port)])
                    replicaServer.withLock { $0 = replica }
                    for _ in 0..<3 {
                        let sentinel = try await RedisSentinelProcess.start(masterName: Self.masterName, primaryPort: primary.port)
                        sentinels.withLock { $0.append(sentinel) }
                    }
                    let asking = Self.clients(of: sentinels.withLock { $0 })
                    clients.withLock { $0 = asking }
                    await Self.expectSettled(asking)
                    return primary
                }, redisEnvironment: { _ in
                    [
                        "ALMANAC_CACHE_REDIS_URL": "",
                        "ALMANAC_CACHE_REDIS_SENTINELS": sentinels.withLock { $0 }.map(\.address).joined(separator: ","),
                        "ALMANAC_CACHE_REDIS_MASTER_NAME": Self.masterName,
                    ]
                }) { cluster in
                    let oldPrimary = "127.0.0.1:\(cluster.redis.port)"
                    let newPrimary = "127.0.0.1:\(try #require(replicaServer.withLock { $0 }).port)"
                    let asking = clients.withLock { $0 }
                    #expect(await waitUntil(timeout: 30) {
                        for replica in 0..<cluster.size where await Self.primaryInUse(cluster, replica) != oldPrimary { return false }
                        return true
                    }, "every replica uses the primary the sentinels name")
                    let metrics = try await cluster.get(0, "/metrics").text
                    #expect(metrics.contains("almanac_cache_l2_primary{address=\"\(oldPrimary)\"} 1"), "\(metrics.prefix(0))")

                    let load = Load(cluster: cluster)
                    let running = Task { await load.run(clients: 6) }
                    #expect(await waitUntil { load.completed >= 60 }, "the load is running (\(load.completed) answers)")
                    await cluster.redis.kill()

                    // Promotion: when a sentinel first names the replica.
                    #expect(await waitUntil(timeout: 60) {
                        for client in asking where await Self.primary(according: client) == newPrimary { return true }
                        return false
                    }, "the sentinels promoted the replica")
                    let promoted = ContinuousClock.now
                    let found = await waitUntil(timeout: 30) {
                        for replica in 0..<cluster.size where await Self.primaryInUse(cluster, replica) != newPrimary { return false }
                        return true
                    }
                    let took = ContinuousClock.now - promoted
                    #expect(found, "every replica moved to the new primary")
                    #expect(took < .seconds(10), "the replicas found the new primary \(took) after its promotion")

                    let atSwitch = load.completed
                    #expect(await waitUntil { load.completed >= atSwitch + 60 }, "the load goes on")
                    load.stop()
                    await running.value
                    let outcome = load.outcome
                    #expect(outcome.failures.isEmpty, "failed requests: \(outcome.failures.prefix(5))")
                    #expect(outcome.statuses.keys.sorted() == [200], "statuses: \(outcome.statuses)")
                    let moved = try await cluster.get(1, "/metrics").text
                    #expect(moved.contains("almanac_cache_l2_primary{address=\"\(newPrimary)\"} 1"))

                    // Cluster-wide single flight again: a cold key asked of all three replicas at
                    // once while the upstream holds the first request costs one upstream request.
                    let answers = try await withThrowingTaskGroup(of: Int.self) { group in
                        for index in 0..<(2 * cluster.size) {
                            group.addTask { try await cluster.get(index % cluster.size, "/v1/books/\(coldISBN)").status }
                        }
                        let allWaiting = await waitUntil {
                            guard coldGate.waiting >= 1 else { return false }
                            for replica in 0..<cluster.size {
                                guard let loads = try? await cluster.cacheFigure(replica, "books", "loadsInFlight"),
                                      loads >= 1 else { return false }
                            }
                            return true
                        }
                        #expect(allWaiting, "one upstream request held, a load on every replica")
                        #expect(coldGate.waiting == 1, "\(coldGate.waiting) upstream requests at once")
                        coldGate.open()
                        var statuses: [Int] = []
                        for try await status in group { statuses.append(status) }
                        return statuses
                    }
                    #expect(answers == Array(repeating: 200, count: 2 * cluster.size), "\(answers)")
                    #expect(FreshISBN.googleRequests(cluster.stub, coldISBN) == 1, "one upstream load for the cluster")
                }
            } catch {
                failure = error
            }
            coldGate.open()
            // Stopped whatever happened (the cluster stops the primary and the almanac replicas).
            await Self.stop(clients: clients.withLock { $0 }, sentinels: sentinels.withLock { $0 },
                            servers: replicaServer.withLock { $0 }.map { [$0] } ?? [], after: failure)
            if let failure { throw failure }
        }
    }
}
