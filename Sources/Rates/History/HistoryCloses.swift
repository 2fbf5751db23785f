import Base
import Cache

/// Daily BTC closes of several currencies over a range of days, assembled from cached blocks,
/// with what the HTTP layer needs to label the answer (validator, freshness, source).
public struct HistoryCloses: Sendable {
    public let days: ClosedRange<Int64>
    /// Code → one `HistoryFixed` value per day of `days` (BTC units of that currency); 0 = none.
    public let values: [String: [Int64]]
    /// The providers the values came from, in the order used, joined by `+` (`bitstamp+frankfurter`).
    public let source: String
    /// The newest block's fetch time (Unix seconds).
    public let updated: Int64
    /// Changes whenever any contributing block does.
    public let validator: String
    /// The blocks' lookups combined (`HistoryLookupSummary`); `shared`: a HIT with at least one
    /// block from the cache every replica shares (L2, Redis).
    public private(set) var freshness: CacheFreshness

    /// The value of `code` on `day`, if any.
    public func value(_ code: String, day: Int64) -> Int64? {
        guard days.contains(day), let row = values[code] else { return nil }
        let v = row[Int(day - days.lowerBound)]
        return v > 0 ? v : nil
    }

    /// The same closes with freshness capped at `seconds` (an answer whose range moves at
    /// midnight, such as CoinDesk's default 31 days, must not be cached by clients past it).
    public func cappingFreshness(at seconds: Double) -> HistoryCloses {
        var capped = self
        capped.freshness.freshnessLeftSeconds = min(freshness.freshnessLeftSeconds, max(0, seconds))
        return capped
    }
}

/// Combines the lookups of the blocks one answer used: MISS if any block was loaded for it,
/// else STALE if any was stale, else HIT; the oldest age; the least freshness left, where a
/// final block (every day it holds has closed) counts as fresh for `finalSeconds` since its
/// fetch even when its own cache entry turns over sooner (a block cut at yesterday is replaced
/// at midnight, but the days it holds never change), so a range ending before today is
/// cacheable by clients for long.
struct HistoryLookupSummary {
    let finalSeconds: Double
    init(finalSeconds: Double) { self.finalSeconds = finalSeconds }

    private(set) var outcome: CacheOutcome = .hit
    private(set) var age: Double = 0
    private(set) var left: Double = .infinity
    private(set) var collapsed = true
    private(set) var sawMiss = false
    private(set) var sawShared = false
    private(set) var updated: Int64 = 0
    private var hasher = ContentDigest()

    mutating func add(_ lookup: CacheLookup<HistoryBlock>) {
        switch lookup.outcome {
        case .miss:
            outcome = .miss
            sawMiss = true
            collapsed = collapsed && lookup.collapsed
        case .stale where outcome == .hit:
            outcome = .stale
        default:
            break
        }
        sawShared = sawShared || lookup.source == .shared
        age = max(age, lookup.ageSeconds)
        let blockLeft = lookup.value.isFinal && lookup.outcome != .stale
            ? max(lookup.freshnessLeftSeconds, finalSeconds - lookup.ageSeconds) : lookup.freshnessLeftSeconds
        left = min(left, blockLeft)
        updated = max(updated, lookup.value.fetchedAt)
        hasher.combine(lookup.validator)
    }

    mutating func add(_ text: String) { hasher.combine(text) }

    var validator: String { hasher.hex }
    /// A HIT that used a block adopted from the shared cache.
    var isShared: Bool { outcome == .hit && sawShared }
    var isCollapsed: Bool { sawMiss && collapsed }

    /// The blocks' lookups as one answer's freshness; `unboundedLeft` seconds left when no
    /// block bounded it (no lookup was added).
    func freshness(unboundedLeft: Double) -> CacheFreshness {
        CacheFreshness(outcome: outcome, ageSeconds: age,
                       freshnessLeftSeconds: left == .infinity ? unboundedLeft : (left.isFinite ? left : 0),
                       collapsed: isCollapsed, shared: isShared)
    }
}
