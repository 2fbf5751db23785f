import Base
import Cache

/// Names one cached block of days: a provider's series over `plan.span(index)`, fetched
/// through day `through`.
///
/// `through` is the block's last day while the block is complete, or the day that was
/// "yesterday" when a block still filling was fetched. Once midnight passes the next request
/// asks for a new key (its `through` is a day later), so a block that was cut at the old
/// yesterday is never mistaken for a complete one, and nothing has to be invalidated.
///
/// Only `HistoryBlockPlan` makes keys (its memberwise initialiser is internal).
public struct HistoryBlockKey: Hashable, Sendable {
    /// `bitstamp`, `coinbase-exchange`, `frankfurter`.
    public var provider: String
    /// The quoted currency of an exchange series (`USD`); empty for frankfurter's rate table.
    public var series: String
    public var index: Int64
    public var through: Int64
}

/// Values of consecutive days from one upstream answer: per currency code, one fixed-point
/// value (`HistoryFixed`) per day starting at `firstDay`; 0 means the upstream had no value
/// that day (before its data starts, an exchange outage, an ECB holiday).
public struct HistoryBlock: CacheValue, Equatable {
    public let firstDay: Int64
    public let dayCount: Int
    public let series: [String: [Int64]]
    /// Unix seconds of the fetch (CoinDesk's `time.updated` of a range is its newest block's).
    public let fetchedAt: Int64
    /// True when every day the block holds is final: its last day had closed when it was
    /// fetched (false when the upstream had not closed yesterday yet). Answers built only from
    /// final blocks never change, whatever the block's own cache lifetime.
    public let isFinal: Bool
    public let cacheValidator: String
    public let cacheCost: Int

    /// Keeps the values of `days` (a day → value map per code); values outside the span are dropped.
    public init(span: ClosedRange<Int64>, values: [String: [Int64: Int64]], fetchedAt: Int64, isFinal: Bool = true) {
        let count = Int(span.upperBound - span.lowerBound + 1)
        var series: [String: [Int64]] = [:]
        for (code, byDay) in values {
            var row = [Int64](repeating: 0, count: count)
            for (day, value) in byDay where span.contains(day) { row[Int(day - span.lowerBound)] = value }
            series[code] = row
        }
        self.init(firstDay: span.lowerBound, dayCount: count, series: series, fetchedAt: fetchedAt, isFinal: isFinal)
    }

    public init(firstDay: Int64, dayCount: Int, series: [String: [Int64]], fetchedAt: Int64, isFinal: Bool = true) {
        self.firstDay = firstDay
        self.dayCount = dayCount
        self.series = series
        self.fetchedAt = fetchedAt
        self.isFinal = isFinal
        var hasher = ContentDigest()
        hasher.combine(String(firstDay))
        hasher.combine(String(fetchedAt))
        hasher.combine(isFinal ? "final" : "open")
        for (code, row) in series.sortedByUTF8Key() {
            hasher.combine(code)
            for value in row { hasher.combine(String(value)) }
        }
        self.cacheValidator = hasher.hex
        self.cacheCost = 96 + series.count * (64 + dayCount * 8)
    }

    /// The value of `code` on `day`, or nil when the block has none.
    public func value(_ code: String, day: Int64) -> Int64? {
        guard day >= firstDay, day < firstDay + Int64(dayCount), let row = series[code] else { return nil }
        let value = row[Int(day - firstDay)]
        return value > 0 ? value : nil
    }
}
