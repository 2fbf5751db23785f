import Base
import HTTPClient
import HTTPClientTestSupport
import Redis
import Synchronization
import Testing
import TestSupport
import Upstream
@testable import SharedSteward

/// Two replicas' stewards (each its own `Steward`, Redis client and local fallback) asking
/// providers through the real `ProviderChain` and `StewardGate`, sharing one `redis-server`.
@Suite(.timeLimit(.minutes(5)), .enabled(if: RedisServerProcess.isInstalled, "redis-server is not installed (make test installs it)"))
struct SharedStewardChainTests {
    static func steward(_ server: RedisServerProcess, replica: String, log: Locked<[String]>) throws -> Steward {
        let configuration = StewardConfiguration()
        let client = RedisClient(configuration: RedisConfiguration(url: try RedisURL(parsing: server.url), timeoutMilliseconds: 1_000))
        let state = SharedStewardState(client: client, keyPrefix: Array("almanac:".utf8),
                                       fallback: LocalStewardState(configuration: configuration, now: SystemClock().now()))
        return Steward(configuration: configuration, state: state,
                       onChange: { provider, change in log.append("\(replica) \(provider) \(change)") })
    }

    static func chain(_ steward: Steward, client: StubHTTPClient) -> ProviderChain<String> {
        .named(["a", "b"], client: client, steward: steward)
    }

    @Test func a429AnsweredToOneReplicaMakesTheOtherSkipTheProvider() async throws {
        let server = try await RedisServerProcess.start()
        let log = Locked<[String]>([]) // every state change either replica reports, as its log would show it
        let one = try Self.steward(server, replica: "one", log: log)
        let two = try Self.steward(server, replica: "two", log: log)
        let client = StubHTTPClient { request in
            request.provider == "a" ? UpstreamResponse(status: 429, headers: ["Retry-After": "30"]) : StubHTTPClient.json("{}")
        }
        #expect(try await Self.chain(one, client: client).answer() == "B")
        #expect(try await Self.chain(two, client: client).answer() == "B")
        #expect(try await Self.chain(two, client: client).answer() == "B")
        #expect(client.requests.map(\.provider) == ["a", "b", "b", "b"], "replica two never asked a")
        #expect(two.skippedCounts()["a"]?[.cooldown] == 2)
        #expect(log.value.count == 1 && log.value.first?.hasPrefix("one a cooldownStarted") == true, "\(log.value)")
        let status = try #require(two.statuses().first { $0.provider == "a" })
        #expect(status.coolingDown && status.cooldownSeconds > 25)
        await server.stop()
    }
}
