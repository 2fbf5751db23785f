import Testing
@testable import Upstream

@Suite struct RetryBudgetTests {
    @Test func retriesStayWithinTheShareOfRequests() {
        var budget = RetryBudget(percent: 10)
        var retries = 0
        var now = 0.0
        // 100 requests a second for 10 s, each wanting a retry.
        for _ in 0..<1000 {
            budget.recordRequest(now: now, isRetry: false)
            if budget.allowsRetry(now: now, retriesInFlight: 3) {
                budget.recordRequest(now: now, isRetry: true)
                retries += 1
            }
            now += 0.01
        }
        // Requests are every request sent, retries included.
        #expect(retries <= (1000 + retries) / 10)
        #expect(retries >= 50)
    }

    /// Envoy's `min_retry_concurrency`: below 3 retries in flight the share never refuses, so
    /// a lone request gets every retry it is configured for, however many came before.
    @Test func fewerThanThreeRetriesInFlightAreAlwaysAllowed() {
        var budget = RetryBudget(percent: 0)
        budget.recordRequest(now: 0, isRetry: false)
        for n in 0..<20 {
            #expect(budget.allowsRetry(now: 0.01 * Double(n), retriesInFlight: n % 3))
            budget.recordRequest(now: 0.01 * Double(n), isRetry: true)
        }
        #expect(!budget.allowsRetry(now: 0.5, retriesInFlight: 3))
        #expect(!budget.allowsRetry(now: 5, retriesInFlight: 7))
        #expect(RetryBudget.minRetriesInFlight == 3)
    }

    @Test func theWindowIsTenSeconds() {
        var budget = RetryBudget(percent: 10)
        for _ in 0..<10 { budget.recordRequest(now: 0, isRetry: false) }
        budget.recordRequest(now: 0, isRetry: true)
        #expect(budget.counts(now: 9.9) == (11, 1))
        #expect(budget.counts(now: 10) == (0, 0))
    }
}
