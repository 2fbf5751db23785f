import Foundation
import HTTPClientTestSupport
import Redis
import Synchronization
import Testing
import TestSupport
@testable import Almanac

extension FullStackTests.Binary {
    /// Sentinel and TLS together, as a managed or self-run production Redis is set up: a primary
    /// and a replica that speak TLS only (`--tls-port`, `--port 0`, a password, replication over
    /// TLS), three `redis-sentinel` processes that reach them over TLS and answer almanac in
    /// plain RESP, and two real almanac replicas with `cache.redis.sentinels` and
    /// `cache.redis.tls.*`. Certificates are made by the test with `openssl`.
    @Suite(.enabled(if: RedisServerProcess.isInstalled && RedisSentinelProcess.executablePath != nil
                        && TestCertificates.opensslPath != nil,
                    "redis-server, redis-sentinel or openssl is not installed (make test-deps installs them)"))
    struct RedisSentinelTLS {
        /// The name `RedisSentinel`'s helpers (`known`, `primary`) ask about.
        static let masterName = RedisSentinel.masterName
        static let password = "sentinel-tls-pw-7713"

        /// What a sentinel needs to monitor TLS-only servers: `tls-replication yes` makes its
        /// links TLS, with the CA and a certificate of its own; a `tls-port` of its own is where
        /// the other sentinels reach it (its plain `port` stays almanac's); the primary's password.
        static func sentinelConfiguration(_ pki: TestCertificates) throws -> [String] {
            [
                "tls-port \(try freeLoopbackPort())",
                "tls-replication yes",
                "tls-cert-file \(pki.serverCertFile)",
                "tls-key-file \(pki.serverKeyFile)",
                "tls-ca-cert-file \(pki.caFile)",
                "tls-auth-clients no",
                "sentinel auth-pass \(masterName) \(password)",
            ]
        }

        @Test func aTLSPrimaryFoundThroughTheSentinelsSharesValues() async throws {
            let pki = try await TestCertificates.make()
            defer { pki.remove() }
            let replicaServer = Mutex<RedisServerProcess?>(nil)
            let sentinels = Mutex<[RedisSentinelProcess]>([])
            let clients = Mutex<[RedisClient]>([])
            var failure: (any Error)?
            do {
                try await Cluster.run(size: 2, startRedis: {
                    let server = pki.redisServerArguments()
                        + ["--tls-replication", "yes", "--requirepass", Self.password, "--masterauth", Self.password]
                    let primary = try await RedisServerProcess.start(arguments: server, tls: true)
                    let replica = try await RedisServerProcess.start(
                        arguments: server + ["--replicaof", "127.0.0.1", String(primary.port)], tls: true)
                    replicaServer.withLock { $0 = replica }
                    for _ in 0..<3 {
                        let sentinel = try await RedisSentinelProcess.start(
                            masterName: Self.masterName, primaryPort: primary.port,
                            configuration: try Self.sentinelConfiguration(pki))
                        sentinels.withLock { $0.append(sentinel) }
                    }
                    let asking = RedisSentinel.clients(of: sentinels.withLock { $0 })
                    clients.withLock { $0 = asking }
                    // Over TLS, each sentinel finds the replica (from the primary's INFO) and the
                    // other sentinels (their hellos on the primary).
                    await RedisSentinel.expectSettled(asking)
                    return primary
                }, redisEnvironment: { _ in
                    [
                        "ALMANAC_CACHE_REDIS_URL": "",
                        "ALMANAC_CACHE_REDIS_SENTINELS": sentinels.withLock { $0 }.map(\.address).joined(separator: ","),
                        "ALMANAC_CACHE_REDIS_MASTER_NAME": Self.masterName,
                        "ALMANAC_CACHE_REDIS_PASSWORD": Self.password,
                        "ALMANAC_CACHE_REDIS_TLS_ENABLED": "true",
                        "ALMANAC_CACHE_REDIS_TLS_CA_FILE": pki.caFile,
                    ]
                }) { cluster in
                    let primary = "127.0.0.1:\(cluster.redis.port)"
                    #expect(await waitUntil(timeout: 30) {
                        for replica in 0..<cluster.size where await RedisSentinel.primaryInUse(cluster, replica) != primary {
                            return false
                        }
                        return true
                    }, "both replicas use the TLS primary the sentinels name: \(cluster.stdout(0).suffix(2000))")

                    try await RedisTLS.expectRatesShared(cluster)
                    for replica in 0..<cluster.size {
                        #expect(!cluster.stdout(replica).contains(Self.password) && !cluster.stderr(replica).contains(Self.password))
                        #expect(!cluster.stdout(replica).contains("verification is off"))
                    }
                }
            } catch {
                failure = error
            }
            await RedisSentinel.stop(clients: clients.withLock { $0 }, sentinels: sentinels.withLock { $0 },
                                     servers: replicaServer.withLock { $0 }.map { [$0] } ?? [], after: failure)
            if let failure { throw failure }
        }
    }
}
