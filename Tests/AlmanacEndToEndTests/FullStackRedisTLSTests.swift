import Foundation
import HTTPClientTestSupport
import Testing
import TestSupport
@testable import Almanac

extension FullStackTests.Binary {
    /// The real binary's shared cache on a real `redis-server` that speaks TLS only
    /// (`--tls-port`, `--port 0`, a password), with certificates the test makes with `openssl`.
    @Suite(.enabled(if: RedisServerProcess.isInstalled && TestCertificates.opensslPath != nil,
                    "redis-server or openssl is not installed (make test-deps installs them)"))
    struct RedisTLS {
        static let password = "tls-cluster-pw-5521"

        /// Runs a cluster of `size` on a TLS Redis; `tls(pki)` are the replicas' TLS keys.
        static func run(size: Int, tls: (TestCertificates) -> [String: String],
                        _ body: (Cluster) async throws -> Void) async throws {
            let pki = try await TestCertificates.make()
            defer { pki.remove() }
            try await Cluster.run(size: size, environment: tls(pki), startRedis: {
                try await RedisServerProcess.start(arguments: pki.redisServerArguments() + ["--requirepass", password], tls: true)
            }, redisEnvironment: { redis in
                ["ALMANAC_CACHE_REDIS_URL": "rediss://:\(password)@127.0.0.1:\(redis.port)"]
            }, body)
        }

        /// The rates replica 0 loaded are answered by replica 1 from Redis: one upstream request.
        static func expectRatesShared(_ cluster: Cluster, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let miss = try await cluster.get(0, "/v1/rates")
            #expect(miss.status == 200, sourceLocation: sourceLocation)
            let shared = try await cluster.get(1, "/v1/rates")
            #expect(shared.header("Cache-Status") == "almanac; hit; detail=redis", sourceLocation: sourceLocation)
            #expect(shared.body == miss.body, sourceLocation: sourceLocation)
            #expect(cluster.stub.requestCount(for: FullStackFixtures.coinbasePath) == 1, sourceLocation: sourceLocation)
        }

        /// Every line the replicas wrote, which must never hold the password.
        static func expectNoPassword(_ cluster: Cluster) {
            for replica in 0..<cluster.size {
                #expect(!cluster.stdout(replica).contains(password) && !cluster.stderr(replica).contains(password))
            }
        }

        /// Verified TLS: a value one replica stored is answered by the other from Redis.
        @Test func aVerifiedConnectionSharesValues() async throws {
            try await Self.run(size: 2, tls: { ["ALMANAC_CACHE_REDIS_TLS_CA_FILE": $0.caFile] }) { cluster in
                #expect(await waitUntil(timeout: 30) { await cluster.everyReplicaSeesL2("up") })
                try await Self.expectRatesShared(cluster)
                #expect(!cluster.stdout(0).contains("verification is off"))
                Self.expectNoPassword(cluster)
            }
        }

        /// A CA that did not sign the server's certificate, or a name the certificate does not
        /// carry: no connection, a warn line saying why, L2 down, and requests still answered.
        @Test func aWrongCAOrNameIsRefusedAndReported() async throws {
            let wrong: [(TestCertificates) -> [String: String]] = [
                { ["ALMANAC_CACHE_REDIS_TLS_CA_FILE": $0.otherCAFile] },
                { ["ALMANAC_CACHE_REDIS_TLS_CA_FILE": $0.caFile, "ALMANAC_CACHE_REDIS_TLS_SERVER_NAME": "other.test"] },
            ]
            for (index, tls) in wrong.enumerated() {
                try await Self.run(size: 1, tls: tls) { cluster in
                    #expect(await waitUntil(timeout: 30) { cluster.stdout(0).contains("cannot connect to Redis") })
                    let line = cluster.stdout(0).split(separator: "\n").first { $0.contains("cannot connect to Redis") } ?? ""
                    #expect(line.contains("certificate not accepted"), "\(line)")
                    if index == 1 { #expect(line.contains("other.test") && line.contains("mismatch"), "\(line)") }
                    #expect(await cluster.everyReplicaSeesL2("down"))
                    let answer = try await cluster.get(0, "/v1/rates")
                    #expect(answer.status == 200)
                    Self.expectNoPassword(cluster)
                }
            }
        }

        /// `cache.redis.tls.verify: false`: connects to a server no configured CA vouches for,
        /// and says at start that it does so.
        @Test func verificationOffWorksAndWarns() async throws {
            try await Self.run(size: 1, tls: { ["ALMANAC_CACHE_REDIS_TLS_CA_FILE": $0.otherCAFile,
                                                "ALMANAC_CACHE_REDIS_TLS_VERIFY": "false"] }) { cluster in
                #expect(await waitUntil(timeout: 30) { await cluster.everyReplicaSeesL2("up") })
                let warning = cluster.stdout(0).split(separator: "\n").first { $0.contains("verification is off") } ?? ""
                #expect(warning.contains("\"level\":\"warn\""), "\(cluster.stdout(0))")
                let answer = try await cluster.get(0, "/v1/rates")
                #expect(answer.status == 200)
                Self.expectNoPassword(cluster)
            }
        }
    }
}
