import Foundation
import HTTPClientTestSupport
import Synchronization
import TestSupport
import Testing
@testable import Almanac

/// Three real almanac processes sharing one real Redis (`Cluster`), against a stub upstream
/// that counts what the whole cluster asks: the shared cache layer as a client and an
/// operator see it (docs/operations.md, "What a cluster does for clients"). Serialized: each test runs five
/// processes, and the machine running the suite may have two cores.
@Suite(.serialized, .timeLimit(.minutes(5)),
       .enabled(if: AlmanacBinary.exists, "no executable at .build/debug/almanac: run `swift build --build-tests` first"),
       .enabled(if: RedisServerProcess.isInstalled, "redis-server is not installed (make test installs it)"))
struct ClusterTests {
    /// Many concurrent requests for one cold key, spread over the three replicas while the
    /// upstream holds the first request, cost one upstream request for the whole cluster;
    /// every replica answers the same bytes with the same `ETag`. For rates and for a book.
    @Test func oneUpstreamRequestPerColdKeyForTheWholeCluster() async throws {
        let ratesGate = ThreadGate(limit: 30)
        let bookGate = ThreadGate(limit: 30)
        try await Cluster.run(script: { stub in
            F.scriptAll(stub)
            stub.route(F.coinbasePath) { _ in
                ratesGate.wait()
                return .json(F.coinbase)
            }
            stub.route(F.googleTarget(F.isbn13)) { _ in
                bookGate.wait()
                return .json(F.google)
            }
        }) { cluster in
            defer {
                ratesGate.open()
                bookGate.open()
            }
            let cases = [("/v1/rates", "rates", ratesGate, [F.coinbasePath]),
                         ("/v1/books/\(F.isbn13)", "books", bookGate, [F.googlePath, F.openLibraryPath])]
            for (target, namespace, gate, upstreamPaths) in cases {
                let perReplica = 4
                let answers = try await withThrowingTaskGroup(of: RawHTTPResponse.self) { group in
                    for index in 0..<(perReplica * cluster.size) {
                        group.addTask { try await cluster.get(index % cluster.size, target) }
                    }
                    // The first request is held at the upstream; every replica has a load for
                    // the key under way (its own, or waiting for the cluster's): now let it go.
                    let allWaiting = await waitUntil {
                        guard gate.waiting >= 1 else { return false }
                        for replica in 0..<cluster.size {
                            guard let loads = try? await cluster.cacheFigure(replica, namespace, "loadsInFlight"),
                                  loads >= 1 else { return false }
                        }
                        return true
                    }
                    #expect(allWaiting, "\(target): one upstream request held, a load on every replica")
                    #expect(gate.waiting == 1, "\(target): \(gate.waiting) upstream requests at once")
                    gate.open()
                    var answers: [RawHTTPResponse] = []
                    for try await answer in group { answers.append(answer) }
                    return answers
                }
                #expect(answers.count == perReplica * cluster.size)
                #expect(answers.allSatisfy { $0.status == 200 }, "\(target): \(answers.map(\.status))")
                #expect(Set(answers.map(\.body)).count == 1, "\(target): the same bytes everywhere")
                #expect(Set(answers.compactMap { $0.header("ETag") }).count == 1, "\(target): one ETag")
                for path in upstreamPaths {
                    #expect(cluster.stub.requestCount(for: path) == 1, "\(target): upstream \(path) asked \(cluster.stub.requestCount(for: path)) times")
                }
            }
            // The two replicas that did not load each key waited for the one that did.
            var waits = 0.0
            for replica in 0..<cluster.size {
                waits += try await cluster.metric(replica, "almanac_cache_l2_lock_waits_total") ?? 0
            }
            #expect(waits >= 4, "lock waits across the cluster: \(waits)")
        }
    }

    /// An answer stored by one replica is served by another from Redis (`X-Cache: HIT`,
    /// `Cache-Status: …; detail=redis`), with the same bytes, `ETag` and age; a validator from
    /// one replica is honoured by another (304). Rates, a book, a history range.
    @Test func sameAnswerAndETagOnEveryReplicaAndConditionalRequestsAcrossThem() async throws {
        try await Cluster.run { cluster in
            let first = try await cluster.get(0, "/v1/rates")
            #expect(first.status == 200)
            #expect(first.header("X-Cache") == "MISS")
            let etag = try #require(first.header("ETag"))
            // Let the stored answer age a second on replica 0 (its L1), so the age another
            // replica reports proves the stored time travelled with the value.
            #expect(await waitUntil { (try? await cluster.get(0, "/v1/rates"))?.header("Age").flatMap { Int($0) } ?? 0 >= 1 })

            for replica in 1..<cluster.size {
                let shared = try await cluster.get(replica, "/v1/rates")
                #expect(shared.status == 200)
                #expect(shared.header("X-Cache") == "HIT")
                #expect(shared.header("Cache-Status")?.hasPrefix("almanac; hit") == true)
                #expect(shared.header("Cache-Status")?.contains("detail=redis") == true, "\(shared.header("Cache-Status") ?? "-")")
                #expect(shared.header("ETag") == etag)
                #expect(shared.body == first.body)
                #expect((shared.header("Age").flatMap { Int($0) } ?? 0) >= 1, "the age of the stored answer: \(shared.header("Age") ?? "-")")
                // Now in this replica's L1: a plain hit.
                let local = try await cluster.get(replica, "/v1/rates")
                #expect(local.header("Cache-Status")?.contains("detail=redis") == false)
                #expect(local.header("ETag") == etag)
            }

            // Replica 0's validator at the others; for the book, at a replica that never saw it.
            for replica in 1..<cluster.size {
                let conditional = try await cluster.get(replica, "/v1/rates", headers: ["If-None-Match: \(etag)"])
                #expect(conditional.status == 304)
                #expect(conditional.header("ETag") == etag)
                #expect(conditional.body.isEmpty)
            }
            let book = try await cluster.get(0, "/v1/books/\(F.isbn13)")
            #expect(book.status == 200)
            let bookETag = try #require(book.header("ETag"))
            let elsewhere = try await cluster.get(2, "/v1/books/\(F.isbn13)", headers: ["If-None-Match: \(bookETag)"])
            #expect(elsewhere.status == 304)
            #expect(elsewhere.header("Cache-Status")?.contains("detail=redis") == true, "\(elsewhere.header("Cache-Status") ?? "-")")
            #expect(cluster.stub.requestCount(for: F.coinbasePath) == 1)
            #expect(cluster.stub.requestCount(for: F.googlePath) == 1)

            // History: the blocks of daily closes replica 0 loaded serve replica 1 from Redis.
            let range = "/v1/bpi/historical/close.json?start=2024-01-01&end=2024-03-31"
            func blockRequests() -> Int { cluster.stub.requests.filter { $0.path.hasPrefix(HistoryStub.bitstampPrefix) }.count }
            let history = try await cluster.get(0, range)
            #expect(history.status == 200, "\(history.text)")
            let blocks = blockRequests()
            #expect(blocks >= 1)
            let sharedHistory = try await cluster.get(1, range)
            #expect(sharedHistory.status == 200)
            #expect(sharedHistory.header("Cache-Status")?.contains("detail=redis") == true, "\(sharedHistory.header("Cache-Status") ?? "-")")
            #expect(sharedHistory.header("ETag") == history.header("ETag"))
            #expect(sharedHistory.body == history.body)
            #expect(blockRequests() == blocks, "no block asked twice")
        }
    }

    /// A replica restarted (empty L1) while the upstream is failing answers from Redis.
    @Test func aRestartedReplicaAnswersFromRedisWhileTheUpstreamFails() async throws {
        try await Cluster.run { cluster in
            let warm = try await cluster.get(0, "/v1/rates")
            #expect(warm.status == 200)
            let warmBook = try await cluster.get(0, "/v1/books/\(F.isbn13)")
            #expect(warmBook.status == 200)
            cluster.stub.setFault(.status(503))
            let asked = cluster.stub.totalRequests

            try await cluster.restart(0)
            let rates = try await cluster.get(0, "/v1/rates")
            #expect(rates.status == 200, "\(rates.text)")
            #expect(rates.header("Cache-Status")?.contains("detail=redis") == true, "\(rates.header("Cache-Status") ?? "-")")
            #expect(rates.header("ETag") == warm.header("ETag"))
            #expect(rates.body == warm.body)
            let book = try await cluster.get(0, "/v1/books/\(F.isbn13)")
            #expect(book.status == 200, "\(book.text)")
            #expect(book.header("ETag") == warmBook.header("ETag"))
            #expect(cluster.stub.totalRequests == asked, "nothing asked of the failing upstream")
        }
    }

    /// An admin purge on one replica empties every replica's L1 (through Redis pub/sub) and
    /// the namespace's keys in Redis: the next request anywhere goes upstream once, and the
    /// others then share that answer.
    @Test func aPurgeOnOneReplicaReachesEveryReplica() async throws {
        try await Cluster.run { cluster in
            for replica in 0..<cluster.size { #expect(try await cluster.get(replica, "/v1/rates").status == 200) }
            #expect(cluster.stub.requestCount(for: F.coinbasePath) == 1)
            for replica in 0..<cluster.size {
                #expect(try await cluster.cacheFigure(replica, "rates", "entries") == 1, "replica \(replica) holds rates in L1")
            }

            let purge = try await cluster.admin(1, "DELETE", "/admin/cache/rates")
            #expect(purge.status == 200, "\(purge.text)")
            let emptied = await waitUntil {
                for replica in 0..<cluster.size {
                    guard (try? await cluster.cacheFigure(replica, "rates", "entries")) == 0 else { return false }
                }
                return true
            }
            #expect(emptied, "every replica's L1 dropped the namespace")

            let next = try await cluster.get(2, "/v1/rates")
            #expect(next.status == 200)
            #expect(next.header("X-Cache") == "MISS", "the Redis keys are gone too")
            #expect(cluster.stub.requestCount(for: F.coinbasePath) == 2)
            for replica in [0, 1] {
                let shared = try await cluster.get(replica, "/v1/rates")
                #expect(shared.header("X-Cache") == "HIT")
                #expect(shared.header("Cache-Status")?.contains("detail=redis") == true, "\(shared.header("Cache-Status") ?? "-")")
                #expect(shared.header("ETag") == next.header("ETag"))
            }
            #expect(cluster.stub.requestCount(for: F.coinbasePath) == 2)
        }
    }

    /// Redis SIGKILLed while the three replicas serve a load of warm and cold keys: every
    /// request is answered 200, each replica reports L2 down (metric 0, `/readyz` 200 with
    /// `"l2":"down"`). Redis restarted on the same port: L2 up again and shared again.
    @Test func redisKilledUnderLoadThenBack() async throws {
        try await Cluster.run(script: { stub in
            F.scriptAll(stub)
            stub.route(F.googlePath) { FreshISBN.google($0) }
        }) { cluster in
            #expect(await waitUntil { await cluster.everyReplicaSeesL2("up") }, "every replica connected to Redis")
            for replica in 0..<cluster.size { #expect(try await cluster.get(replica, "/v1/rates").status == 200) }

            let load = Load(cluster: cluster)
            let running = Task { await load.run(clients: 6) }
            #expect(await waitUntil { load.completed >= 60 }, "the load is running (\(load.completed) answers)")
            await cluster.redis.kill()
            #expect(await waitUntil { await cluster.everyReplicaSeesL2("down") }, "every replica reports L2 down and stays ready")
            let atDown = load.completed
            #expect(await waitUntil { load.completed >= atDown + 60 }, "the load goes on without Redis")
            load.stop()
            await running.value
            let outcome = load.outcome
            #expect(outcome.failures.isEmpty, "failed requests: \(outcome.failures.prefix(5))")
            #expect(outcome.statuses.keys.sorted() == [200], "statuses: \(outcome.statuses)")

            try await cluster.redis.launch()
            #expect(await waitUntil(timeout: 20) { await cluster.everyReplicaSeesL2("up") }, "every replica reconnected")
            let isbn = FreshISBN.next()
            let cold = try await cluster.get(0, "/v1/books/\(isbn)")
            #expect(cold.status == 200)
            #expect(cold.header("X-Cache") == "MISS")
            #expect(FreshISBN.googleRequests(cluster.stub, isbn) == 1)
            for replica in 1..<cluster.size {
                let shared = try await cluster.get(replica, "/v1/books/\(isbn)")
                #expect(shared.status == 200)
                #expect(shared.header("Cache-Status")?.contains("detail=redis") == true, "\(shared.header("Cache-Status") ?? "-")")
                #expect(shared.header("ETag") == cold.header("ETag"))
            }
            #expect(FreshISBN.googleRequests(cluster.stub, isbn) == 1, "one upstream load for the cluster")
        }
    }
}

/// Clients sending requests to the cluster's replicas in turn, each on a fresh connection,
/// alternating a warm key (`/v1/rates`) and a cold one (a book never asked for), until stopped.
final class Load: Sendable {
    struct Outcome: Sendable {
        var statuses: [Int: Int] = [:]
        var failures: [String] = []
    }

    private let cluster: Cluster
    private let state = Mutex((outcome: Outcome(), completed: 0, stopped: false))

    init(cluster: Cluster) { self.cluster = cluster }

    var completed: Int { state.withLock { $0.completed } }
    var outcome: Outcome { state.withLock { $0.outcome } }
    func stop() { state.withLock { $0.stopped = true } }

    func run(clients: Int) async {
        await withTaskGroup(of: Void.self) { group in
            for client in 0..<clients {
                group.addTask {
                    var turn = client
                    while !self.state.withLock({ $0.stopped }) {
                        let target = turn % 2 == 0 ? "/v1/rates" : "/v1/books/\(FreshISBN.next())"
                        let replica = turn % self.cluster.size
                        turn += 1
                        do {
                            let answer = try await self.cluster.get(replica, target)
                            self.state.withLock {
                                $0.outcome.statuses[answer.status, default: 0] += 1
                                if answer.status != 200 { $0.outcome.failures.append("\(target) at \(replica): \(answer.text.prefix(300))") }
                                $0.completed += 1
                            }
                        } catch {
                            self.state.withLock {
                                $0.outcome.failures.append("\(target) at \(replica): \(error)")
                                $0.completed += 1
                            }
                        }
                    }
                }
            }
        }
    }
}
