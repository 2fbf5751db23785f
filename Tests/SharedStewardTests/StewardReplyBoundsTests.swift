import Testing
@testable import Upstream
@testable import SharedSteward

/// What a reply read from Redis may say, whatever the hash held (pure).
@Suite struct StewardReplyBoundsTests {
    static let bounds = StewardReplyBounds(limits: StewardLimits(), budget: ProviderBudget(maxRequestsPerSecond: 5, burst: 10),
                                           maxQueueSeconds: 0.25)

    @Test func waitsAndOpeningsStayWithinTheCaps() {
        let ticket = AdmissionTicket(shared: true)
        #expect(Self.bounds.admission(.skipped(.cooldown, availableInSeconds: 86_400)) == .skipped(.cooldown, availableInSeconds: 300))
        #expect(Self.bounds.admission(.skipped(.breaker, availableInSeconds: 1e308)) == .skipped(.breaker, availableInSeconds: 60))
        #expect(Self.bounds.admission(.skipped(.budget, availableInSeconds: 200_000)) == .skipped(.budget, availableInSeconds: 0.25 + 0.4))
        #expect(Self.bounds.admission(.skipped(.budget, availableInSeconds: 0.2)) == .skipped(.budget, availableInSeconds: 0.2))
        #expect(Self.bounds.admission(.admitted(ticket, waitSeconds: 1e6)) == .admitted(ticket, waitSeconds: 0.65))
        #expect(Self.bounds.changes([.cooldownStarted(seconds: 1e9), .breakerOpened(seconds: 500, failures: 1_000), .breakerClosed])
            == [.cooldownStarted(seconds: 300), .breakerOpened(seconds: 60, failures: 5), .breakerClosed])
        let unbudgeted = StewardReplyBounds(limits: StewardLimits(), budget: .unlimited, maxQueueSeconds: 0.25)
        #expect(unbudgeted.admission(.skipped(.budget, availableInSeconds: 9)) == .skipped(.budget, availableInSeconds: 0))
    }

    @Test func aSnapshotShowsTokensWithinTheirRange() throws {
        let fields: [String?] = ["1", "86400", "1", "999", "1e9", "-1000000", "0.5", ""]
        let snapshot = try #require(SharedProviderSnapshot(fields))
        let bounded = Self.bounds.snapshot(snapshot)
        #expect(bounded.tokens == -1.25, "at most the queue's reservations: 0.25 s at 5/s")
        #expect(bounded.cooldownSeconds == 300)
        #expect(bounded.breakerOpenForSeconds == 60)
        #expect(bounded.consecutiveFailures == 5)
        var high = snapshot
        high.tokens = 1e308
        #expect(Self.bounds.snapshot(high).tokens == 10)
    }
}
