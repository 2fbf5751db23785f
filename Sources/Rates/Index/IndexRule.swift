import Foundation

/// The index rule, a pure function of the constituents' answers and the time, so it is tested
/// without sockets:
///
/// 1. keep each constituent's price that is a positive decimal within `RateTableBuilder`'s
///    usable range and, when the ticker carries a time, at most `maxAgeSeconds` from `now`
///    (others are `failed` or `stale`);
/// 2. m = their median (of an even count, the mean of the two middle prices);
/// 3. drop every price p with |p − m| / m > `maxDeviationPercent` / 100 (`deviates`);
/// 4. the index is the median of the rest, if at least `minSources` are left.
///
/// Everything is `Decimal`, compared without division, so no digit of an upstream's price is
/// lost on the way to the answer.
public struct IndexRule: Sendable, Equatable {
    public var minSources: Int
    public var maxDeviationPercent: Decimal
    public var maxAgeSeconds: Int64

    public init(minSources: Int = 3, maxDeviationPercent: Decimal = 2, maxAgeSeconds: Int64 = 120) {
        self.minSources = minSources
        self.maxDeviationPercent = maxDeviationPercent
        self.maxAgeSeconds = maxAgeSeconds
    }

    /// The index of `currency` from each provider's observation (in the order given), at `now`.
    public func evaluate(_ currency: String, _ observations: [(provider: String, observation: IndexObservation)],
                         now: Int64) -> CurrencyIndex {
        var sources: [IndexSource] = []
        for (provider, observation) in observations {
            switch observation {
            case let .failed(detail):
                sources.append(IndexSource(provider: provider, status: .failed, detail: detail))
            case let .skipped(detail):
                sources.append(IndexSource(provider: provider, status: .skipped, detail: detail))
            case let .quote(quote):
                sources.append(judge(provider, quote, now: now))
            }
        }
        let candidates = sources.compactMap { $0.status == .used ? $0.price : nil }
        guard let median = Self.median(candidates) else {
            return CurrencyIndex(currency: currency, value: nil, median: nil, sources: sources)
        }
        for n in sources.indices where sources[n].status == .used {
            guard let price = sources[n].price else { continue }
            let distance = (price - median).magnitude
            if distance * 100 > maxDeviationPercent * median {
                sources[n].status = .deviates
                sources[n].detail = Self.percent(distance / median * 100) + "% from the median"
            }
        }
        let used = sources.compactMap { $0.status == .used ? $0.price : nil }
        let value = used.count >= max(1, minSources) ? Self.median(used) : nil
        return CurrencyIndex(currency: currency, value: value, median: median, sources: sources)
    }

    /// A quote's line before the deviation filter: `used` (a candidate), `failed` or `stale`.
    func judge(_ provider: String, _ quote: IndexQuote, now: Int64) -> IndexSource {
        var source = IndexSource(provider: provider, price: quote.price, time: quote.time, status: .used)
        if quote.price.isNaN || quote.price <= 0 {
            source.status = .failed
            source.detail = "price \(quote.price) is not positive"
        } else if !RateTableBuilder.usableRates.contains(quote.price) {
            source.status = .failed
            source.detail = "price \(quote.price) is out of range"
        } else if let time = quote.time {
            let age = now.subtractingReportingOverflow(time)
            if age.overflow || age.partialValue > maxAgeSeconds || age.partialValue < -maxAgeSeconds {
                source.status = .stale
                source.detail = age.overflow ? "ticker time is out of range"
                    : age.partialValue > 0 ? "ticker is \(age.partialValue) s old" : "ticker time is \(-age.partialValue) s ahead"
            }
        }
        return source
    }

    /// The median of `values`: the middle one of an odd count, the mean of the two middle ones
    /// of an even count; nil when empty.
    public static func median(_ values: [Decimal]) -> Decimal? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        if sorted.count % 2 == 1 { return sorted[middle] }
        return (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// A percentage for people: one decimal (`5.2`).
    static func percent(_ value: Decimal) -> String {
        DecimalText.grouped(value, decimals: 1).replacingOccurrences(of: ",", with: "")
    }
}
