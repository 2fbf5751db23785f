import Redis
import Testing
import TestSupport
@testable import Upstream
@testable import SharedSteward

/// The script against `ProviderGuard`'s rules: the same random sequences of admissions,
/// outcomes, abandons and retry questions on one manual clock go to a `LocalStewardState` and
/// to a `SharedStewardState` on a real `redis-server` whose script is given that clock
/// (`.callers`), and every answer and status must be the same. Times are multiples of 1/8 s, so
/// both sides' arithmetic is exact and any difference is a difference of rules.
@Suite(.timeLimit(.minutes(5)), .enabled(if: RedisServerProcess.isInstalled, "redis-server is not installed (make test installs it)"))
struct StewardScriptParityTests {
    static var configuration: StewardConfiguration {
        var configuration = StewardConfiguration()
        configuration.limits.breakerFailures = 3
        configuration.limits.maxCooldownSeconds = 6
        configuration.limits.staleProbeSeconds = 2
        configuration.limits.retryBudgetPercent = 30
        configuration.budgets["budgeted"] = ProviderBudget(maxRequestsPerSecond: 2, burst: 3)
        // The longest wait a sequence asks for (5/8 s): the steward never asks for more than
        // this, and the script bounds the token debt it reads with it.
        configuration.maxQueueMs = 625
        return configuration
    }

    static func unshared(_ admission: Admission) -> Admission {
        guard case .admitted(var ticket, let wait) = admission else { return admission }
        ticket.shared = false
        return .admitted(ticket, waitSeconds: wait)
    }

    @Test(arguments: 1...8 as ClosedRange<UInt64>) func randomSequencesGetTheSameAnswers(seed: UInt64) async throws {
        let server = try await RedisServerProcess.start()
        let client = RedisClient(configuration: RedisConfiguration(url: try RedisURL(parsing: server.url), timeoutMilliseconds: 5_000))
        let reference = LocalStewardState(configuration: Self.configuration, now: 0)
        let shared = SharedStewardState(client: client, keyPrefix: Array("parity:".utf8),
                                        fallback: LocalStewardState(configuration: Self.configuration, now: 0), clock: .callers)
        var random = SplitMix64(seed: seed)
        var now = 0.0
        var open: [(provider: String, local: AdmissionTicket, shared: AdmissionTicket)] = []
        var asked: Set<String> = []
        for step in 0..<500 {
            let provider = random.next() % 4 == 0 ? "unbudgeted" : "budgeted"
            switch random.next() % 12 {
            case 0..<4:
                let request = AdmissionRequest(maxWaitSeconds: Double(random.next() % 6) / 8,
                                               background: random.next() % 5 == 0, isRetry: random.next() % 4 == 0)
                let expected = await reference.admit(provider, request, now: now)
                let got = await shared.admit(provider, request, now: now)
                asked.insert(provider)
                #expect(Self.unshared(got) == expected, "seed \(seed) step \(step): admit \(request)")
                if case .admitted(let local, _) = expected, case .admitted(let remote, _) = got {
                    #expect(remote.shared)
                    open.append((provider, local, remote))
                }
            case 4..<8 where !open.isEmpty:
                let (name, local, remote) = open.remove(at: Int(random.next() % UInt64(open.count)))
                let outcome: AttemptOutcome
                switch random.next() % 7 {
                case 0: outcome = .stop(retryAfterSeconds: nil)
                case 6: outcome = .stop(retryAfterSeconds: .infinity)
                case 1: outcome = .stop(retryAfterSeconds: Double(random.next() % 40) / 8)
                case 2, 3: outcome = .failure
                case 4: outcome = .answered
                default: outcome = .cancelled
                }
                let expected = await reference.record(name, local, outcome: outcome, now: now)
                let got = await shared.record(name, remote, outcome: outcome, now: now)
                asked.insert(name)
                #expect(got == expected, "seed \(seed) step \(step): record \(outcome) for \(local)")
            case 8 where !open.isEmpty:
                let (name, local, remote) = open.remove(at: Int(random.next() % UInt64(open.count)))
                await reference.abandon(name, local, now: now)
                await shared.abandon(name, remote, now: now)
                asked.insert(name)
            case 9:
                let inFlight = Int(random.next() % 5)
                let expected = await reference.allowsRetry(provider, now: now, retriesInFlight: inFlight)
                #expect(await shared.allowsRetry(provider, now: now, retriesInFlight: inFlight) == expected,
                        "seed \(seed) step \(step): retry with \(inFlight) in flight")
                asked.insert(provider)
            default:
                now += Double(random.next() % 16) / 8
            }
            let statuses = shared.statuses(now: now)
            // A provider shows the cluster's state once this replica has asked Redis about it,
            // its own (a configured budget, untouched) before.
            #expect(statuses.allSatisfy { ($0.scope == "cluster") == asked.contains($0.provider) })
            #expect(statuses.map { var local = $0; local.scope = "replica"; return local } == reference.statuses(now: now),
                    "seed \(seed) step \(step): statuses")
        }
        #expect(shared.fallbackDecisionCount == 0)
        await client.shutdown()
        await server.stop()
    }
}
