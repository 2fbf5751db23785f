/// Caps retries at a share of a provider's requests, so a failing provider is not sent
/// several requests for every one a client asked for. Pure and clock-driven.
///
/// Requests (first attempts and retries) are counted in one-second buckets over the last
/// `windowSeconds` (10). A retry is allowed while fewer than `minRetriesInFlight` retries of
/// the provider are in flight (Envoy's `min_retry_concurrency`: a lone request, or a quiet
/// provider, always gets its configured `upstream.retries`); above that, while retries in the
/// window stay below `percent` of the requests in it (Envoy's and Finagle's retry budgets).
struct RetryBudget: Sendable, Equatable {
    static let windowSeconds = 10
    /// Retries in flight below which the percentage never refuses one.
    static let minRetriesInFlight = 3

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

    /// Whether one more retry fits at `now`, with `retriesInFlight` of this provider's retries
    /// sent and not yet answered (counted by the process that sends them).
    func allowsRetry(now: Double, retriesInFlight: Int) -> Bool {
        if retriesInFlight < Self.minRetriesInFlight { return true }
        let window = counts(now: now)
        return Double(window.retries + 1) <= Double(window.requests) * percent / 100
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
