import Base
import Testing

@Suite struct LatencyHistogramTests {
    /// A value lands in the first bucket whose bound is ≥ it; beyond the last bound, in `+Inf`.
    @Test func bucketsCountAndSum() {
        let h = LatencyHistogram(bounds: [0.001, 0.01, 1])
        for seconds in [0.0005, 0.001, 0.002, 0.5, 2, 30] { h.record(seconds: seconds) }
        let s = h.snapshot()
        #expect(s.counts == [2, 1, 1, 2])
        #expect(s.cumulativeCounts == [2, 3, 4, 6])
        #expect(s.count == 6)
        #expect(abs(s.sum - 32.5035) < 1e-9)
    }

    @Test func defaultBoundsAscend() {
        #expect(LatencyHistogram.defaultBounds == LatencyHistogram.defaultBounds.sorted())
        #expect(LatencyHistogram().snapshot().counts.count == LatencyHistogram.defaultBounds.count + 1)
    }
}
