import Testing
import TestSupport
@testable import Redis

/// The client behind a real `redis-sentinel`: it finds the primary, and follows a failover the
/// sentinel carries out (`SENTINEL FAILOVER`: the replica promoted, the old primary demoted).
@Suite(.timeLimit(.minutes(5)), .enabled(if: RedisServerProcess.isInstalled && RedisSentinelProcess.executablePath != nil,
                "redis-server or redis-sentinel is not installed (make test-deps installs them)"))
struct RedisSentinelClientTests {
    @Test func theClientUsesThePrimaryAndFollowsAFailover() async throws {
        let primary = try await RedisServerProcess.start()
        let replica = try await RedisServerProcess.start(arguments: ["--replicaof", "127.0.0.1", String(primary.port)])
        let sentinel = try await RedisSentinelProcess.start(masterName: "mymaster", primaryPort: primary.port, quorum: 1)
        let asking = RedisClient(configuration: RedisConfiguration(url: RedisURL(host: "127.0.0.1", port: sentinel.port),
                                                                   timeoutMilliseconds: 2_000))
        let client = RedisClient(configuration: RedisConfiguration(
            url: RedisURL(host: "mymaster"), sentinel: RedisSentinelConfiguration(
                sentinels: [RedisEndpoint(host: "127.0.0.1", port: try refusedPort()), // a sentinel that is down
                            RedisEndpoint(host: "127.0.0.1", port: sentinel.port)], masterName: "mymaster"),
            timeoutMilliseconds: 2_000, connectTimeoutMilliseconds: 10_000, reconnectInitialDelayMilliseconds: 20, reconnectMaximumDelayMilliseconds: 200,
            healthCheckIntervalMilliseconds: 200))
        do {
            try await client.set("almanac:sentinel", "before")
            #expect(client.serverAddress == "127.0.0.1:\(primary.port)")
            // The sentinel must know the replica before it can fail over to it.
            #expect(await waitUntil(timeout: 30) {
                (try? await asking.send(RedisCommand("SENTINEL", "replicas", "mymaster")))?.elements?.count == 1
            })
            #expect(await waitUntil(timeout: 30) {
                (try? await asking.send(RedisCommand("SENTINEL", "FAILOVER", "mymaster"))) != nil
            }, "the sentinel started a failover")
            #expect(await waitUntil(timeout: 30) {
                guard client.serverAddress == "127.0.0.1:\(replica.port)" else { return false }
                return (try? await client.set("almanac:sentinel", "after")) == true
            }, "the client moved to the promoted replica and writes there")
            #expect(try await client.get("almanac:sentinel") == Array("after".utf8))
        } catch {
            Issue.record("\(error); sentinel log: \(sentinel.log.suffix(2000))")
        }
        await client.shutdown()
        await asking.shutdown()
        await sentinel.stop()
        await replica.stop()
        await primary.stop()
    }

    /// A sentinel that names a replica (here: told to monitor one) is not believed: `ROLE`
    /// ends the handshake, and the client never writes there.
    @Test func aServerThatIsNotThePrimaryIsRefused() async throws {
        let primary = try await RedisServerProcess.start()
        let replica = try await RedisServerProcess.start(arguments: ["--replicaof", "127.0.0.1", String(primary.port)])
        let sentinel = try await RedisSentinelProcess.start(masterName: "wrong", primaryPort: replica.port, quorum: 1)
        let client = RedisClient(configuration: RedisConfiguration(
            url: RedisURL(host: "wrong"), sentinel: RedisSentinelConfiguration(
                sentinels: [RedisEndpoint(host: "127.0.0.1", port: sentinel.port)], masterName: "wrong"),
            // Discovery, connect and ROLE on a busy machine can take longer than the default second;
            // what is tested is the refusal, not the bound.
            timeoutMilliseconds: 2_000, connectTimeoutMilliseconds: 10_000, healthCheckIntervalMilliseconds: 0))
        do {
            try await client.set("almanac:never", "x")
            Issue.record("wrote to a replica")
        } catch {
            #expect(error.description.contains("127.0.0.1:\(replica.port) is not the primary"), "\(error)")
        }
        #expect(client.serverAddress == nil)
        await client.shutdown()
        await sentinel.stop()
        await replica.stop()
        await primary.stop()
    }
}
