import Base
import Foundation
import Redis
import Testing
import TestSupport
@testable import Upstream
@testable import SharedSteward

/// Two replicas (two `SharedStewardState`s, each with its own Redis client and local fallback)
/// sharing one real `redis-server`, on Redis's clock as in production.
@Suite(.timeLimit(.minutes(5)), .enabled(if: RedisServerProcess.isInstalled, "redis-server is not installed (make test installs it)"))
struct SharedStewardClusterTests {
    static let go = AdmissionRequest(maxWaitSeconds: 0)

    static func configuration() -> StewardConfiguration {
        var configuration = StewardConfiguration()
        configuration.limits.breakerFailures = 4
        // Slow refills: a test's few seconds never earn a token back.
        configuration.budgets["google-books"] = ProviderBudget(maxRequestsPerSecond: 0.001, burst: 6)
        configuration.budgets["open-library"] = ProviderBudget(maxRequestsPerSecond: 0.001, burst: 3)
        return configuration
    }

    static func replica(_ server: RedisServerProcess, timeoutMilliseconds: Int = 1_000) throws -> SharedStewardState {
        let client = RedisClient(configuration: RedisConfiguration(
            url: try RedisURL(parsing: server.url), timeoutMilliseconds: timeoutMilliseconds,
            reconnectInitialDelayMilliseconds: 20, reconnectMaximumDelayMilliseconds: 200, healthCheckIntervalMilliseconds: 200))
        return SharedStewardState(client: client, keyPrefix: Array("almanac:".utf8),
                                  fallback: LocalStewardState(configuration: configuration(), now: SystemClock().now()))
    }

    static var now: Double { SystemClock().now() }

    static func admitted(_ state: SharedStewardState, _ provider: String, _ request: AdmissionRequest = go) async -> AdmissionTicket? {
        if case .admitted(let ticket, _) = await state.admit(provider, request, now: now) { return ticket }
        return nil
    }

    static func reason(_ admission: Admission) -> ProviderSkipped.Reason? {
        if case .skipped(let reason, _) = admission { return reason }
        return nil
    }

    @Test func aStopSeenByOneReplicaCoolsTheProviderDownForTheOther() async throws {
        let server = try await RedisServerProcess.start()
        let (a, b) = (try Self.replica(server), try Self.replica(server))
        let ticket = try #require(await Self.admitted(a, "coinbase"))
        #expect(ticket.shared)
        let changes = await a.record("coinbase", ticket, outcome: .stop(retryAfterSeconds: 30), now: Self.now)
        guard case .cooldownStarted(let seconds)? = changes.first, changes.count == 1 else {
            Issue.record("no cooldown started: \(changes)")
            return
        }
        #expect(seconds > 29 && seconds <= 30)
        let seen = await b.admit("coinbase", Self.go, now: Self.now)
        guard case .skipped(.cooldown, let left) = seen else { Issue.record("b was admitted: \(seen)"); return }
        #expect(left > 25 && left <= 30)
        #expect(await b.allowsRetry("coinbase", now: Self.now, retriesInFlight: 0) == false)
        // B's statuses show what B last saw: the shared cooldown.
        let status = try #require(b.statuses(now: Self.now).first { $0.provider == "coinbase" })
        #expect(status.coolingDown && status.state == "open" && status.scope == "cluster")
        // Another stop while cooling down starts nothing new: one log line for the cluster.
        let late = try #require(await Self.admitted(a, "coinbase-exchange"))
        _ = await a.record("coinbase-exchange", late, outcome: .answered, now: Self.now)
        #expect(a.fallbackDecisionCount == 0 && b.fallbackDecisionCount == 0)
        await server.stop()
    }

    @Test func failuresSpreadOverBothReplicasOpenOneBreaker() async throws {
        let server = try await RedisServerProcess.start()
        let (a, b) = (try Self.replica(server), try Self.replica(server))
        var changes: [StewardChange] = []
        for replica in [a, b, a, b] {
            let ticket = try #require(await Self.admitted(replica, "bitstamp"))
            changes += await replica.record("bitstamp", ticket, outcome: .failure, now: Self.now)
        }
        // Four failures, two on each replica (each replica alone has seen only two): the
        // breaker opened once, reported once.
        #expect(changes == [.breakerOpened(seconds: 1, failures: 4)])
        #expect(Self.reason(await a.admit("bitstamp", Self.go, now: Self.now)) == .breaker)
        #expect(Self.reason(await b.admit("bitstamp", Self.go, now: Self.now)) == .breaker)
        // After the opening one probe goes, from either replica, and its success closes it for both.
        var probe: (SharedStewardState, AdmissionTicket)?
        #expect(await waitUntil(timeout: 10) {
            for replica in [b, a] {
                if case .admitted(let ticket, _) = await replica.admit("bitstamp", Self.go, now: Self.now) {
                    probe = (replica, ticket)
                    return true
                }
            }
            return false
        })
        let (prober, ticket) = try #require(probe)
        #expect(ticket.breakerProbe)
        let other = prober === a ? b : a
        #expect(Self.reason(await other.admit("bitstamp", Self.go, now: Self.now)) == .breaker, "the probe slot is the cluster's")
        #expect(await prober.record("bitstamp", ticket, outcome: .answered, now: Self.now) == [.breakerClosed])
        #expect(await Self.admitted(other, "bitstamp") != nil)
        await server.stop()
    }

    @Test func theBudgetIsTheClustersNotEachReplicas() async throws {
        let server = try await RedisServerProcess.start()
        let (a, b) = (try Self.replica(server), try Self.replica(server))
        var admitted: [(SharedStewardState, AdmissionTicket)] = []
        var refused = 0
        for round in 0..<8 {
            for replica in [a, b] {
                switch await replica.admit("google-books", Self.go, now: Self.now) {
                case .admitted(let ticket, _): admitted.append((replica, ticket))
                case .skipped(let reason, _):
                    #expect(reason == .budget, "round \(round)")
                    refused += 1
                }
            }
        }
        // Burst 6 for the cluster: each replica alone would have let 6 through (12 in all).
        #expect(admitted.count == 6 && refused == 10)
        let tokens = try #require(a.statuses(now: Self.now).first { $0.provider == "google-books" }).tokens
        #expect(tokens < 1)
        // A request admitted by A but never sent gives its token back to the cluster: B gets it.
        let (owner, ticket) = try #require(admitted.first { $0.0 === a })
        await owner.abandon("google-books", ticket, now: Self.now)
        #expect(await Self.admitted(b, "google-books") != nil)
        #expect(Self.reason(await a.admit("google-books", Self.go, now: Self.now)) == .budget)
        await server.stop()
    }

    @Test func withRedisGoneEachReplicaFollowsTheLocalRulesAndSharesAgainWhenItIsBack() async throws {
        let server = try await RedisServerProcess.start()
        let (a, b) = (try Self.replica(server, timeoutMilliseconds: 300), try Self.replica(server, timeoutMilliseconds: 300))
        // One request through Redis: A's own bucket (burst 3) is charged too.
        #expect(await Self.admitted(a, "open-library")?.shared == true)
        await server.kill()
        // Down: each replica decides alone, within what one process may send (A has 2 left, B 3).
        var fromA = 0
        var fromB = 0
        for _ in 0..<5 {
            if let ticket = await Self.admitted(a, "open-library") { #expect(!ticket.shared); fromA += 1 }
            if let ticket = await Self.admitted(b, "open-library") { #expect(!ticket.shared); fromB += 1 }
        }
        #expect(fromA == 2 && fromB == 3)
        #expect(a.fallbackDecisionCount > 0 && b.fallbackDecisionCount > 0)
        // A stop seen while Redis is down cools that replica down (its own rules).
        let local = try #require(await Self.admitted(a, "coinbase"))
        #expect(await a.record("coinbase", local, outcome: .stop(retryAfterSeconds: 60), now: Self.now).count == 1)
        #expect(Self.reason(await a.admit("coinbase", Self.go, now: Self.now)) == .cooldown)
        #expect(await Self.admitted(b, "coinbase") != nil, "B never saw that stop")

        // Back (empty: no persistence, the script is loaded again): shared again.
        try await server.launch()
        #expect(await waitUntil(timeout: 15) { await Self.admitted(a, "frankfurter")?.shared == true })
        #expect(await waitUntil(timeout: 15) { await Self.admitted(b, "frankfurter")?.shared == true })
        // Each replica already sent its whole burst of open-library (A: 1 through Redis and 2
        // alone, B: 3 alone). The restarted, empty Redis would grant 3 more; each replica's own
        // bucket refuses, and Redis gets its tokens back.
        let fallbacks = (a.fallbackDecisionCount, b.fallbackDecisionCount)
        #expect(Self.reason(await a.admit("open-library", Self.go, now: Self.now)) == .budget)
        #expect(Self.reason(await b.admit("open-library", Self.go, now: Self.now)) == .budget)
        #expect(a.fallbackDecisionCount == fallbacks.0 && b.fallbackDecisionCount == fallbacks.1, "decided with Redis")
        let ticket = try #require(await Self.admitted(b, "frankfurter"))
        #expect(ticket.shared)
        #expect(await b.record("frankfurter", ticket, outcome: .stop(retryAfterSeconds: 20), now: Self.now).count == 1)
        #expect(Self.reason(await a.admit("frankfurter", Self.go, now: Self.now)) == .cooldown)
        await server.stop()
    }

    @Test func aStalledRedisCostsACallItsTimeoutThenTheLocalStateDecides() async throws {
        let server = try await RedisServerProcess.start()
        let a = try Self.replica(server, timeoutMilliseconds: 100)
        #expect(await Self.admitted(a, "coinbase")?.shared == true)
        server.pause()
        let ticket = await Self.admitted(a, "coinbase")
        #expect(ticket != nil && ticket?.shared == false)
        #expect(a.fallbackDecisionCount >= 1)
        // Statuses never wait for Redis; they show the local state for a provider that fell back.
        let status = try #require(a.statuses(now: Self.now).first { $0.provider == "coinbase" })
        #expect(status.requestsLast10s == 2 && status.scope == "replica", "both requests, as this replica counted them")
        server.resume()
        #expect(await waitUntil(timeout: 15) { await Self.admitted(a, "coinbase")?.shared == true })
        await server.stop()
    }

    /// A provider's hash written by someone else: fields that are not finite numbers of their
    /// kind are dropped, the others clamped, so no hash blocks a provider past the caps (the
    /// script's clamps, read through the Swift ones).
    @Test func aHostileHashIsClampedByTheScript() async throws {
        let server = try await RedisServerProcess.start()
        let client = RedisClient(configuration: RedisConfiguration(url: try RedisURL(parsing: server.url), timeoutMilliseconds: 5_000))
        let state = try Self.replica(server)
        let far = String(Date().timeIntervalSince1970 + 1e9)
        let hashes: [[String]] = [
            ["tk", "-1000000"], ["tk", "-1e308"], ["tk", "nan"], ["tk", "inf"], ["tu", far],
            ["cs", "1", "cu", far], ["cs", "1", "cu", "1e308"], ["cs", "2", "cp", far],
            ["bs", "1", "bu", far], ["bs", "2", "bp", far], ["bo", "1e308", "bs", "1", "bu", "x"],
            ["cs", "7"], ["rw", "99999999999,5,9;-5,1000000000000,1"],
        ]
        for (index, fields) in hashes.enumerated() {
            let provider = "open-library-\(index)"
            _ = try await client.eval("redis.call('DEL', KEYS[1]); return redis.call('HSET', KEYS[1], unpack(ARGV))",
                                      keys: ["almanac:steward:\(provider)"], arguments: fields)
            let admission = await state.admit(provider, Self.go, now: Self.now)
            if case .skipped(let reason, let seconds) = admission {
                let cap = reason == .cooldown ? Self.configuration().limits.maxCooldownSeconds : 60
                #expect(seconds <= cap, "\(fields): \(admission)")
            }
            #expect(state.statuses(now: Self.now).contains { $0.provider == provider }, "\(fields)")
        }
        // The budget's hashes: admitted at once, or within a token's refill.
        for fields in [["tk", "-1000000"], ["tk", "-1e308"]] {
            _ = try await client.eval("redis.call('DEL', KEYS[1]); return redis.call('HSET', KEYS[1], unpack(ARGV))",
                                      keys: ["almanac:steward:open-library"], arguments: fields)
            let admission = await state.admit("open-library", AdmissionRequest(maxWaitSeconds: 0.25), now: Self.now)
            if case .skipped(_, let seconds) = admission { #expect(seconds <= 0.25 + 2 / 0.001, "\(admission)") }
        }
        await client.shutdown()
        await server.stop()
    }
}
