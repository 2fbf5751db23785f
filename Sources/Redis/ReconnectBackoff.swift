/// How long to wait before the next connection attempt: exponential with "equal jitter".
///
/// After the n-th consecutive failure the delay is `d/2 + jitter · d/2` with
/// `d = min(maximum, initial · 2^(n-1))`, so replicas that lost the same Redis at the same moment
/// do not reconnect in lockstep, yet none waits less than half the nominal delay. A successful
/// handshake resets it. Pure: the caller passes the jitter (a number in 0…1), so tests are exact.
public struct ReconnectBackoff: Sendable, Equatable {
    public typealias Nanos = UInt64

    public let initial: Nanos
    public let maximum: Nanos
    /// Consecutive failures since the last success.
    public private(set) var failures = 0

    public init(initial: Nanos, maximum: Nanos) {
        self.initial = max(1, initial)
        self.maximum = max(self.initial, maximum)
    }

    /// Records one more failure and returns the delay before the next attempt.
    public mutating func nextDelay(jitter: Double) -> Nanos {
        failures += 1
        var nominal = initial
        var step = 1
        while step < failures && nominal < maximum {
            nominal = nominal > maximum / 2 ? maximum : nominal * 2
            step += 1
        }
        nominal = min(nominal, maximum)
        let half = nominal / 2
        let unit = jitter.isFinite ? min(max(jitter, 0), 1) : 0
        return half + Nanos(Double(nominal - half) * unit)
    }

    /// The connection is up again.
    public mutating func reset() {
        failures = 0
    }
}
