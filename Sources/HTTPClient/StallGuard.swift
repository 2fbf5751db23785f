/// Cuts an answer that has started but then trickles: once the first byte of the response has
/// arrived, each `seconds`-long stretch must bring at least `minBytesPerSecond` on average.
///
/// Why not libcurl's `CURLOPT_LOW_SPEED_*`: it counts from the start of the transfer, so an
/// upstream that is slow to answer but then sends its answer at full speed (a cold cache
/// upstream, 4 s to its first byte) was cut after `seconds` whatever `upstream.timeoutMs` said.
/// Before the first byte only the total deadline (`upstream.timeoutMs`) limits the wait.
///
/// Pure and clock-driven (seconds on any monotonic clock), fed by the transfer's callbacks.
struct StallGuard: Sendable, Equatable {
    let minBytesPerSecond: Int
    let seconds: Double
    /// When the current stretch began: nil until the first byte.
    private(set) var stretchStart: Double?
    private var stretchBytes = 0

    /// `seconds` ≤ 0 or `minBytesPerSecond` ≤ 0 switch the guard off.
    init(minBytesPerSecond: Int, seconds: Double) {
        self.minBytesPerSecond = minBytesPerSecond
        self.seconds = seconds
    }

    var isEnabled: Bool { minBytesPerSecond > 0 && seconds > 0 && seconds.isFinite }

    /// `count` bytes of the response (head or body) arrived at `now`.
    mutating func received(_ count: Int, now: Double) {
        guard count > 0 else { return }
        if stretchStart == nil {
            stretchStart = now
            stretchBytes = 0
        }
        stretchBytes += count
    }

    /// Whether the answer has stalled at `now`: a whole stretch since the first byte brought
    /// less than the minimum rate. A stretch that kept the rate starts the next one.
    mutating func hasStalled(now: Double) -> Bool {
        guard isEnabled, let start = stretchStart else { return false }
        let elapsed = now - start
        guard elapsed >= seconds else { return false }
        if Double(stretchBytes) < Double(minBytesPerSecond) * elapsed { return true }
        stretchStart = now
        stretchBytes = 0
        return false
    }
}
