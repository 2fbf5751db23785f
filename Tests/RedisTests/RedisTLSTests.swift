import Testing
import TestSupport
@testable import Redis

/// The client over TLS against a real `redis-server --tls-port … --port 0` whose certificates
/// the test makes with `openssl` (`TestCertificates`): what is verified, what is refused, and
/// that the refusal says why.
@Suite(.timeLimit(.minutes(5)), .enabled(if: RedisServerProcess.isInstalled && TestCertificates.opensslPath != nil,
                "redis-server or openssl is not installed (make test-deps installs them)"))
struct RedisTLSTests {
    static func configuration(_ url: String, _ tls: RedisTLSConfiguration) throws -> RedisConfiguration {
        RedisConfiguration(url: try RedisURL(parsing: url), tls: tls, timeoutMilliseconds: 5_000,
                           connectTimeoutMilliseconds: 5_000, reconnectInitialDelayMilliseconds: 20,
                           reconnectMaximumDelayMilliseconds: 200, healthCheckIntervalMilliseconds: 0)
    }

    /// The reason the first call gives when the connection cannot be made.
    static func refusal(_ client: RedisClient) async -> String {
        do {
            try await client.ping()
            return "accepted"
        } catch {
            return error.description
        }
    }

    @Test func aVerifiedConnectionCarriesValuesBothWays() async throws {
        let pki = try await TestCertificates.make()
        defer { pki.remove() }
        let server = try await RedisServerProcess.start(arguments: pki.redisServerArguments() + ["--requirepass", "tls-pass-9431"], tls: true)
        defer { Task { await server.stop() } }
        let url = "rediss://:tls-pass-9431@127.0.0.1:\(server.port)"
        // By IP (the certificate's IP entry) and by a name given as serverName.
        for tls in [RedisTLSConfiguration(caFile: pki.caFile),
                    RedisTLSConfiguration(caFile: pki.caFile, serverName: "redis.test")] {
            let client = RedisClient(configuration: try Self.configuration(url, tls))
            let big = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            #expect(try await client.set("almanac:tls", big))
            #expect(try await client.get("almanac:tls") == big)
            // Many pipelined calls at once: writes and reads larger than one TLS record.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<50 {
                    group.addTask {
                        let value = Array("value-\(index)".utf8)
                        try await client.set("almanac:k\(index)", value)
                        #expect(try await client.get("almanac:k\(index)") == value)
                    }
                }
                try await group.waitForAll()
            }
            await client.shutdown()
        }
    }

    @Test func aWrongCAOrAWrongNameIsRefusedAndSaysWhy() async throws {
        let pki = try await TestCertificates.make()
        defer { pki.remove() }
        let server = try await RedisServerProcess.start(arguments: pki.redisServerArguments() + ["--requirepass", "tls-pass-9431"], tls: true)
        defer { Task { await server.stop() } }
        let url = "rediss://:tls-pass-9431@127.0.0.1:\(server.port)"

        let wrongCA = RedisClient(configuration: try Self.configuration(url, RedisTLSConfiguration(caFile: pki.otherCAFile)))
        let caReason = await Self.refusal(wrongCA)
        #expect(caReason.contains("certificate not accepted for 127.0.0.1"), "\(caReason)")
        #expect(!wrongCA.isAvailable)
        await wrongCA.shutdown()

        let wrongName = RedisClient(configuration: try Self.configuration(url, RedisTLSConfiguration(caFile: pki.caFile, serverName: "other.test")))
        let nameReason = await Self.refusal(wrongName)
        #expect(nameReason.contains("certificate not accepted for other.test") && nameReason.contains("mismatch"), "\(nameReason)")
        await wrongName.shutdown()

        // Plain TCP to a TLS port is not a connection either.
        let plain = RedisClient(configuration: try Self.configuration("redis://:tls-pass-9431@127.0.0.1:\(server.port)", .init()))
        #expect(await Self.refusal(plain) != "accepted")
        await plain.shutdown()

        for reason in [caReason, nameReason] { #expect(!reason.contains("tls-pass-9431")) }
    }

    @Test func withoutVerificationAnyCertificateIsTaken() async throws {
        let pki = try await TestCertificates.make()
        defer { pki.remove() }
        let server = try await RedisServerProcess.start(arguments: pki.redisServerArguments(), tls: true)
        defer { Task { await server.stop() } }
        let client = RedisClient(configuration: try Self.configuration(
            server.url, RedisTLSConfiguration(caFile: pki.otherCAFile, serverName: "other.test", verify: false)))
        try await client.ping()
        await client.shutdown()
    }

    @Test func aServerThatWantsAClientCertificateGetsOne() async throws {
        let pki = try await TestCertificates.make()
        defer { pki.remove() }
        let server = try await RedisServerProcess.start(arguments: pki.redisServerArguments(requireClientCertificate: true), tls: true)
        defer { Task { await server.stop() } }
        let withCertificate = RedisClient(configuration: try Self.configuration(
            server.url, RedisTLSConfiguration(caFile: pki.caFile, certFile: pki.clientCertFile, keyFile: pki.clientKeyFile)))
        try await withCertificate.ping()
        await withCertificate.shutdown()
        let without = RedisClient(configuration: try Self.configuration(server.url, RedisTLSConfiguration(caFile: pki.caFile)))
        #expect(await Self.refusal(without) != "accepted")
        await without.shutdown()
    }

    @Test func anUnreadableCAFileIsAReasonNotACrash() async throws {
        let client = RedisClient(configuration: try Self.configuration(
            "rediss://127.0.0.1:1", RedisTLSConfiguration(caFile: "/nonexistent/almanac-ca.pem")))
        let reason = await Self.refusal(client)
        #expect(reason.contains("cannot load cache.redis.tls.caFile /nonexistent/almanac-ca.pem"), "\(reason)")
        await client.shutdown()
    }
}
