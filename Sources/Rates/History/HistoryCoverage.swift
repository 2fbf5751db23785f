import Base

/// The pure steps between cached blocks and a day-by-day series: which days a provider
/// answers, copying block values, and crossing BTC-USD closes with ECB rates.
enum HistoryCoverage {
    /// Splits `range` at a provider's first day: the days it answers, and the earlier days
    /// left for the next provider (nil when none). Nil when the provider holds none of them.
    static func split(_ range: ClosedRange<Int64>, earliest: Int64)
        -> (own: ClosedRange<Int64>, rest: ClosedRange<Int64>?)? {
        guard range.upperBound >= earliest else { return nil }
        let own = max(range.lowerBound, earliest)...range.upperBound
        let rest = range.lowerBound < earliest ? range.lowerBound...(earliest - 1) : nil
        return (own, rest)
    }

    /// Whether a freshly fetched block holds its last day. ECB rates exist on weekdays only,
    /// so a frankfurter block ending on a Saturday or Sunday is complete without it.
    static func hasLastDay(_ block: HistoryBlock, provider: String) -> Bool {
        let last = block.firstDay + Int64(block.dayCount) - 1
        if provider == "frankfurter" {
            let weekday = CivilTime.weekday(days: last)
            if weekday == 0 || weekday == 6 { return true }
        }
        return block.series.values.contains { ($0.last ?? 0) > 0 }
    }

    /// Copies `code`'s values of `block` for the days in `range` into `row` (day `firstDay` at 0).
    static func copy(_ block: HistoryBlock, code: String, within range: ClosedRange<Int64>,
                     into row: inout [Int64], firstDay: Int64) {
        guard let values = block.series[code] else { return }
        let lo = max(range.lowerBound, block.firstDay, firstDay)
        let hi = min(range.upperBound, block.firstDay + Int64(block.dayCount) - 1, firstDay + Int64(row.count) - 1)
        guard lo <= hi else { return }
        for day in lo...hi {
            let v = values[Int(day - block.firstDay)]
            if v > 0 { row[Int(day - firstDay)] = v }
        }
    }

    /// BTC-X closes: each day's BTC-USD close × the USD→X rate of the latest ECB business day on
    /// or before it, no more than `lookback` days before (else the day has no X close).
    static func crossed(_ usd: [Int64], firstDay: Int64, code: String, fx: [HistoryBlock], lookback: Int64) -> [Int64] {
        var out = [Int64](repeating: 0, count: usd.count)
        let lastDay = firstDay + Int64(usd.count) - 1
        // ECB rates laid out densely from the look-back's first day to the last day asked.
        let origin = firstDay - lookback
        var rates = [Int64](repeating: 0, count: usd.count + Int(lookback))
        for block in fx {
            guard let values = block.series[code] else { continue }
            let lo = max(block.firstDay, origin), hi = min(block.firstDay + Int64(block.dayCount) - 1, lastDay)
            guard lo <= hi else { continue }
            for day in lo...hi { rates[Int(day - origin)] = values[Int(day - block.firstDay)] }
        }
        var lastRate: Int64 = 0
        var lastRateIndex = Int.min / 2
        for i in 0..<rates.count {
            if rates[i] > 0 { lastRate = rates[i]; lastRateIndex = i }
            let day = origin + Int64(i)
            guard day >= firstDay else { continue }
            let close = usd[Int(day - firstDay)]
            if close > 0, lastRate > 0, i - lastRateIndex <= Int(lookback), let v = HistoryFixed.product(close, lastRate) {
                out[Int(day - firstDay)] = v
            }
        }
        return out
    }
}
