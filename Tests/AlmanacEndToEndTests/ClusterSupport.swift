import Foundation
import HTTPClientTestSupport
import Synchronization
import TestSupport
import Testing
@testable import Books
#if canImport(Glibc)
import Glibc
#endif

/// A cluster as it runs in production, on loopback: one real `redis-server`, `size` real
/// almanac processes (the built binary, each on its own port) sharing it as their second cache
/// layer, and one stub upstream counting every request the whole cluster sends. Use
/// `Cluster.run { … }`, which stops everything by PID even when the test throws.
final class Cluster: Sendable {
    static let adminToken = "cluster-admin-token"

    let redis: RedisServerProcess
    let stub: StubUpstream
    private let extraEnvironment: [String: String]
    /// Each replica's process and port; a restart swaps the process, keeps the port.
    private let replicas: Mutex<[(spawned: AlmanacBinary.Spawned, port: Int)]>

    private init(redis: RedisServerProcess, stub: StubUpstream, extraEnvironment: [String: String]) {
        self.redis = redis
        self.stub = stub
        self.extraEnvironment = extraEnvironment
        replicas = Mutex([])
    }

    /// Starts Redis (`startRedis`: a plain one unless the test needs TLS or a primary behind
    /// Sentinel; its `url` is the replicas' `cache.redis.url` unless `environment` or
    /// `redisEnvironment`, given the started server, say otherwise), the stub (scripted by
    /// `script`) and `size` replicas (in parallel), runs `body`, and stops it all.
    static func run(size: Int = 3, environment: [String: String] = [:],
                    script: (StubUpstream) -> Void = FullStackFixtures.scriptAll,
                    startRedis: () async throws -> RedisServerProcess = { try await RedisServerProcess.start() },
                    redisEnvironment: (RedisServerProcess) -> [String: String] = { _ in [:] },
                    _ body: (Cluster) async throws -> Void) async throws {
        let stub = try StubUpstream()
        script(stub)
        let redis: RedisServerProcess
        do {
            redis = try await startRedis()
        } catch {
            stub.stop()
            throw error
        }
        let cluster = Cluster(redis: redis, stub: stub,
                              extraEnvironment: environment.merging(redisEnvironment(redis)) { _, forRedis in forRedis })
        do {
            try await withThrowingTaskGroup(of: (AlmanacBinary.Spawned, Int).self) { group in
                for _ in 0..<size {
                    group.addTask { try await AlmanacBinary.serving(cluster.environment) }
                }
                for try await started in group {
                    cluster.replicas.withLock { $0.append((started.0, started.1)) }
                }
            }
            try await body(cluster)
        } catch {
            cluster.recordOutputs()
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }

    /// What every replica is started with: every provider at the stub, L2 at `redis`, the
    /// admin API on, no retries, and the steward's budgets and breaker out of the way (the
    /// tests count upstream requests to prove the cluster's single flight, and a budget would
    /// answer for it). `cache.redis.timeoutMs` is roomy for a loaded machine: a Redis call
    /// timing out would be a (correct) L1-only answer, and these tests want the L2 path.
    private var environment: [String: String] {
        var env: [String: String] = [
            "ALMANAC_SERVER_ADMIN_TOKEN": Cluster.adminToken,
            "ALMANAC_SERVER_SHUTDOWN_GRACE_SECONDS": "3",
            "ALMANAC_LOG_LEVEL": "warn",
            "ALMANAC_CACHE_REDIS_URL": redis.url,
            // Generous: these tests are about sharing, not about a slow Redis (its own tests), and a
            // full parallel test run on 2 cores can hold a replica back for a second.
            "ALMANAC_CACHE_REDIS_TIMEOUT_MS": "5000",
            "ALMANAC_UPSTREAM_RETRIES": "0",
            // Roomy: a test holds an upstream answer until every replica is waiting for it,
            // and the waiters' patience is this deadline (the suite may share 2 cores).
            "ALMANAC_UPSTREAM_TIMEOUT_MS": "30000",
            "ALMANAC_UPSTREAM_REQUEST_DEADLINE_MS": "30000",
            "ALMANAC_UPSTREAM_BREAKER_FAILURES": "1000",
        ]
        // The index off unless a test's environment turns it on: these tests count the chain's requests.
        env["ALMANAC_RATES_INDEX_PROVIDERS"] = ""
        env.merge(AlmanacBinary.stubEnvironment(stub.baseURL, unbudgeted: true)) { _, stubbed in stubbed }
        return env.merging(extraEnvironment) { _, given in given }
    }

    var size: Int { replicas.withLock { $0.count } }

    func port(_ replica: Int) -> Int { replicas.withLock { $0[replica].port } }

    /// Stops replica `replica` (SIGTERM, drained) and starts a new process on its port: an
    /// empty L1, the same Redis.
    func restart(_ replica: Int) async throws {
        let old = replicas.withLock { $0[replica] }
        if old.spawned.isRunning {
            let status = await old.spawned.child.stop(grace: 10)
            #expect(status == 0, "replica \(replica) exit status \(status): \(old.spawned.stderr)")
        }
        old.spawned.removeFiles()
        let started = try await AlmanacBinary.serving(environment, port: old.port)
        replicas.withLock { $0[replica] = (started.spawned, started.port) }
    }

    /// What `replica` has written to stdout so far (its log lines).
    func stdout(_ replica: Int) -> String { replicas.withLock { $0[replica].spawned.stdout } }

    /// What `replica` has written to stderr so far.
    func stderr(_ replica: Int) -> String { replicas.withLock { $0[replica].spawned.stderr } }

    /// One request to `replica` on a fresh connection.
    func get(_ replica: Int, _ target: String, method: String = "GET", headers: [String] = []) async throws -> RawHTTPResponse {
        let client = try RawHTTPClient(port: port(replica), timeout: 15)
        try await client.request(method, target, extra: headers)
        return try await client.readResponse(head: method == "HEAD")
    }

    /// An admin call (bearer token) to `replica`.
    func admin(_ replica: Int, _ method: String, _ target: String) async throws -> RawHTTPResponse {
        try await get(replica, target, method: method, headers: ["Authorization: Bearer \(Cluster.adminToken)"])
    }

    /// The metric `name` as `replica` reports it (nil: no such sample).
    func metric(_ replica: Int, _ name: String) async throws -> Double? {
        metricValue(try await get(replica, "/metrics").text, name)
    }

    /// `/readyz` of `replica`: its status and its `l2` field.
    func readiness(_ replica: Int) async throws -> (status: Int, l2: String?) {
        let r = try await get(replica, "/readyz")
        guard case let .string(l2)? = r.json?["l2"] else { return (r.status, nil) }
        return (r.status, l2)
    }

    /// True when every replica says L2 is `state` ("up"/"down") in both its metric and its
    /// readiness answer, and readiness is 200 either way.
    func everyReplicaSeesL2(_ state: String) async -> Bool {
        for replica in 0..<size {
            guard let up = try? await metric(replica, "almanac_cache_l2_up"), up == (state == "up" ? 1 : 0),
                  let ready = try? await readiness(replica), ready.status == 200, ready.l2 == state else { return false }
        }
        return true
    }

    /// A number from `replica`'s `GET /admin/cache` for `namespace` (`entries`, `loadsInFlight`…).
    func cacheFigure(_ replica: Int, _ namespace: String, _ figure: String) async throws -> Int? {
        let r = try await admin(replica, "GET", "/admin/cache")
        guard case let .number(text)? = r.json?["namespaces"]?[namespace]?[figure] else { return nil }
        return Int(text)
    }

    /// Records every replica's output as a test issue (called when a test throws).
    func recordOutputs() {
        for (index, replica) in replicas.withLock({ $0 }).enumerated() {
            Issue.record("replica \(index) stdout: \(replica.spawned.stdout.suffix(4000))\nstderr: \(replica.spawned.stderr.suffix(4000))")
        }
    }

    func stop() async {
        let all = replicas.withLock { $0 }
        await withTaskGroup(of: Void.self) { group in
            for replica in all {
                group.addTask {
                    await replica.spawned.child.stop(grace: 5)
                    replica.spawned.removeFiles()
                }
            }
        }
        stub.stop()
        await redis.stop()
    }
}

/// Valid ISBN-13s no test has asked for yet (prefix 979-10, so never a fixture's), for keys
/// that must be cold.
enum FreshISBN {
    private static let counter = Atomic<Int>(0)

    static func next() -> String {
        let serial: Int = counter.add(1, ordering: .relaxed).newValue % 10_000
        let run: Int = Int(ProcessInfo.processInfo.processIdentifier) % 1000
        let number = String(run * 10_000 + serial)
        let body = "97910" + String(repeating: "0", count: max(0, 7 - number.count)) + number
        let digits: [UInt8] = body.utf8.map { $0 - UInt8(ascii: "0") }
        return body + String(ISBN.checkDigit13(digits))
    }

    /// Google's answer for any ISBN the query names: a book of that ISBN (no cover, so Open
    /// Library is asked too and answers `{}`), so cold keys answer 200.
    static func google(_ request: StubRequest) -> StubResponse {
        let isbn = (request.query ?? "").split(separator: ":").last.map(String.init) ?? ""
        return .json("""
        {"kind":"books#volumes","totalItems":1,"items":[{"kind":"books#volume","volumeInfo":{"title":"Book \(isbn)",
          "authors":["A. Writer"],"industryIdentifiers":[{"type":"ISBN_13","identifier":"\(isbn)"}]}}]}
        """)
    }

    /// Google Books requests the stub saw for `isbn`.
    static func googleRequests(_ stub: StubUpstream, _ isbn: String) -> Int {
        stub.requests.filter { $0.path == FullStackFixtures.googlePath && $0.target.contains(isbn) }.count
    }
}
