/// Caps retries at a share of a provider's requests, so a failing provider is not sent
/// several requests for every one a client asked for. Pure and clock-driven.
///
/// Requests (first attempts and retries) are counted in one-second buckets over the last
/// `windowSeconds` (10). A retry is allowed while retries in the window stay below `percent`
/// of the requests in it, and in any case once per second (so a quiet provider can still be
/// retried), in the spirit of Envoy's and Finagle's retry budgets.
struct RetryBudget: Sendable, Equatable {
    static let windowSeconds = 10

    let percent: Double
    /// (second, requests, retries), one entry per second that saw traffic, oldest first.
    private var buckets: [(second: Int64, requests: Int, retries: Int)] = []

    init(percent: Int) { self.percent = Double(max(0, percent)) }

    static func == (lhs: RetryBudget, rhs: RetryBudget) -> Bool {
        lhs.percent == rhs.percent && lhs.buckets.elementsEqual(rhs.buckets) { $0 == $1 }
    }

    /// Counts a request sent at `now`.
    mutating func recordRequest(now: Double, isRetry: Bool) {
        let second = Self.second(now)
        prune(second)
        if let last = buckets.last, last.second == second {
            buckets[buckets.count - 1].requests += 1
            if isRetry { buckets[buckets.count - 1].retries += 1 }
        } else {
            buckets.append((second, 1, isRetry ? 1 : 0))
        }
    }

    /// Whether one more retry fits at `now`.
    func allowsRetry(now: Double) -> Bool {
        let second = Self.second(now)
        let live = buckets.filter { second - $0.second < Int64(Self.windowSeconds) }
        let retriesThisSecond = live.last.map { $0.second == second ? $0.retries : 0 } ?? 0
        if retriesThisSecond == 0 { return true }
        let requests = live.reduce(0) { $0 + $1.requests }
        let retries = live.reduce(0) { $0 + $1.retries }
        return Double(retries + 1) <= Double(requests) * percent / 100
    }

    /// (requests, retries) in the window ending at `now`.
    func counts(now: Double) -> (requests: Int, retries: Int) {
        let second = Self.second(now)
        let live = buckets.filter { second - $0.second < Int64(Self.windowSeconds) }
        return (live.reduce(0) { $0 + $1.requests }, live.reduce(0) { $0 + $1.retries })
    }

    private mutating func prune(_ second: Int64) {
        buckets.removeAll { second - $0.second >= Int64(Self.windowSeconds) }
    }

    private static func second(_ now: Double) -> Int64 {
        guard now.isFinite else { return 0 }
        return Int64(max(-9e15, min(9e15, now.rounded(.down))))
    }
}
