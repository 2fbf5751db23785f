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
            if budget.allowsRetry(now: now) {
                budget.recordRequest(now: now, isRetry: true)
                retries += 1
            }
            now += 0.01
        }
        // Requests are every request sent, retries included; plus the floor of one a second.
        #expect(retries <= (1000 + retries) / 10 + 10)
        #expect(retries >= 50)
    }

    @Test func atLeastOneRetryASecond() {
        var budget = RetryBudget(percent: 0)
        budget.recordRequest(now: 0, isRetry: false)
        #expect(budget.allowsRetry(now: 0))
        budget.recordRequest(now: 0.1, isRetry: true)
        #expect(!budget.allowsRetry(now: 0.5))
        #expect(budget.allowsRetry(now: 1.0))
    }

    @Test func theWindowIsTenSeconds() {
        var budget = RetryBudget(percent: 10)
        for _ in 0..<10 { budget.recordRequest(now: 0, isRetry: false) }
        budget.recordRequest(now: 0, isRetry: true)
        #expect(budget.counts(now: 9.9) == (11, 1))
        #expect(budget.counts(now: 10) == (0, 0))
    }
}
