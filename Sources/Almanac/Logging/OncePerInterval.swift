/// Lets a thing through at most once per `interval` for each key: a log line that would
/// otherwise repeat on every request (the same stale key served a thousand times a second
/// during an outage) is written once a minute instead. Pure: the caller passes the time.
///
/// Memory is bounded: past `capacity` keys, keys last let through more than `interval` ago
/// are forgotten (they would be let through again anyway); if all are recent, the oldest go.
struct OncePerInterval {
    let interval: Double
    let capacity: Int
    private(set) var lastAllowed: [String: Double] = [:]

    init(interval: Double, capacity: Int = 4096) {
        self.interval = interval
        self.capacity = max(1, capacity)
    }

    /// True when `key` was not let through within the last `interval` seconds before `now`.
    mutating func allow(_ key: String, now: Double) -> Bool {
        if let last = lastAllowed[key], now - last < interval { return false }
        if lastAllowed[key] == nil, lastAllowed.count >= capacity { forgetOld(now: now) }
        lastAllowed[key] = now
        return true
    }

    private mutating func forgetOld(now: Double) {
        lastAllowed = lastAllowed.filter { now - $0.value < interval }
        while lastAllowed.count >= capacity, let oldest = lastAllowed.min(by: { $0.value < $1.value }) {
            lastAllowed.removeValue(forKey: oldest.key)
        }
    }
}
