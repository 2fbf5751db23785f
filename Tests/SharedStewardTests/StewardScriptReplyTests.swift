import Redis
import Testing
import Upstream
@testable import SharedSteward

/// The script's reply decoded, and the mirror's projection of a snapshot, without sockets.
@Suite struct StewardScriptReplyTests {
    static func bulk(_ text: String) -> RESPValue { .bulkString(Array(text.utf8)) }
    static let status = ["1", "2.5", "0", "3", "0", "4.5", "0.25", "0,5,1;3,2,0"]

    func reply(_ result: [RESPValue], status: [String] = Self.status) -> StewardScriptReply? {
        StewardScriptReply(.array([.array(result), .array(status.map(Self.bulk))]))
    }

    @Test func admissionsAndSkips() {
        let admitted = reply(["admitted", "1", "0", "0.2"].map(Self.bulk))?.admission
        #expect(admitted == .admitted(AdmissionTicket(cooldownProbe: true, breakerProbe: false, shared: true), waitSeconds: 0.2))
        #expect(reply(["skipped", "breaker", "0.75"].map(Self.bulk))?.admission == .skipped(.breaker, availableInSeconds: 0.75))
        #expect(reply(["skipped", "weather", "1"].map(Self.bulk))?.admission == nil)
        #expect(reply(["skipped", "budget", "nan"].map(Self.bulk))?.admission == nil)
        #expect(reply(["admitted", "1", "0"].map(Self.bulk))?.admission == nil)
        // A negative duration (clock step) reads as 0.
        #expect(reply(["skipped", "budget", "-0.1"].map(Self.bulk))?.admission == .skipped(.budget, availableInSeconds: 0))
    }

    @Test func changesInOrder() {
        let changes = reply([.array([Self.bulk("cooldownEnded")]), .array(["breakerOpened", "1", "5"].map(Self.bulk)),
                             .array([Self.bulk("breakerClosed")]), .array(["cooldownStarted", "30"].map(Self.bulk))])?.changes
        #expect(changes == [.cooldownEnded, .breakerOpened(seconds: 1, failures: 5), .breakerClosed, .cooldownStarted(seconds: 30)])
        #expect(reply([])?.changes == [])
        #expect(reply([.array([Self.bulk("breakerOpened"), Self.bulk("1")])])?.changes == nil)
        #expect(reply([Self.bulk("breakerClosed")])?.changes == nil)
    }

    @Test func retryVerdicts() {
        #expect(reply([Self.bulk("1")])?.allowsRetry == true)
        #expect(reply([Self.bulk("0")])?.allowsRetry == false)
        #expect(reply([Self.bulk("yes")])?.allowsRetry == nil)
    }

    @Test func malformedRepliesAreRefused() {
        #expect(StewardScriptReply(.integer(1)) == nil)
        #expect(StewardScriptReply(.array([.array([])])) == nil)
        #expect(reply([], status: Array(Self.status.dropLast())) == nil)
        #expect(reply([], status: ["3"] + Self.status.dropFirst()) == nil)  // no cooldown phase 3
        #expect(reply([], status: Self.status.dropLast(3) + ["inf", "0.25", ""]) == nil)
        #expect(reply([], status: Self.status.dropLast() + ["0,5"]) == nil)
        #expect(reply([], status: Self.status.dropLast() + ["0,5,-1"]) == nil)
        #expect(reply([], status: Self.status.dropLast() + ["0,5,1;"]) != nil)
        #expect(StewardScriptReply(.array([.array([]), .array([.integer(1)] + Self.status.dropFirst().map(Self.bulk))])) == nil)
    }

    @Test func aSnapshotProjectsToLaterMoments() throws {
        let snapshot = try #require(reply([])?.snapshot)
        let budget = ProviderBudget(maxRequestsPerSecond: 2, burst: 10)
        let then = snapshot.status(provider: "p", budget: budget, elapsed: 0)
        #expect(then == ProviderStatus(provider: "p", state: "open", breaker: "closed", consecutiveFailures: 3,
                                       breakerOpenForSeconds: 0, coolingDown: true, cooldownSeconds: 2.5,
                                       maxRequestsPerSecond: 2, burst: 10, tokens: 4.5, requestsLast10s: 7, retriesLast10s: 1,
                                       scope: "cluster"))
        let later = snapshot.status(provider: "p", budget: budget, elapsed: 1)
        #expect(later.cooldownSeconds == 1.5 && later.tokens == 6.5 && later.requestsLast10s == 7)
        // The bucket three seconds old leaves the window when Redis's clock (0.25 s into its
        // second) reaches its tenth second.
        let older = snapshot.status(provider: "p", budget: budget, elapsed: 6.7)
        #expect(older.requestsLast10s == 7 && older.retriesLast10s == 1)
        let oldest = snapshot.status(provider: "p", budget: budget, elapsed: 6.75)
        #expect(oldest.requestsLast10s == 5 && oldest.retriesLast10s == 1)
        let muchLater = snapshot.status(provider: "p", budget: budget, elapsed: 10)
        #expect(muchLater.cooldownSeconds == 0 && muchLater.tokens == 10 && muchLater.requestsLast10s == 0)
        // Still "cooling down" with nothing left: state moves with requests (as locally).
        #expect(muchLater.coolingDown && muchLater.state == "open")
        #expect(snapshot.status(provider: "p", budget: budget, elapsed: -5) == then)
        #expect(snapshot.status(provider: "p", budget: .unlimited, elapsed: 0).tokens == 20)
    }

    @Test func theGaugeFollowsTheCooldownThenTheBreaker() throws {
        func state(_ fields: [String]) throws -> String {
            try #require(SharedProviderSnapshot(fields)).status(provider: "p", budget: .unlimited, elapsed: 0).state
        }
        #expect(try state(["2", "0", "1", "0", "5", "1", "0", ""]) == "half-open")
        #expect(try state(["0", "0", "1", "0", "5", "1", "0", ""]) == "open")
        #expect(try state(["0", "0", "2", "0", "0", "1", "0", ""]) == "half-open")
        #expect(try state(["0", "0", "0", "0", "0", "1", "0", ""]) == "closed")
    }
}
