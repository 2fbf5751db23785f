import Foundation

/// What became of one constituent's price in one currency's index (`/v1/index` `sources`).
public enum IndexSourceStatus: String, Sendable, Equatable, CaseIterable {
    /// Within `maxDeviationPercent` of the median: part of the index.
    case used
    /// Fresh and valid, but too far from the median (a misprint, a flash crash).
    case deviates
    /// The ticker's time is older than `maxAgeSeconds` (a frozen feed).
    case stale
    /// An error, a malformed answer, or a price that is not a positive finite decimal.
    case failed
    /// The steward held the exchange back (cooldown, breaker, budget): it was not asked.
    case skipped
}

/// One constituent's line in a currency's index: its price and time when it gave them, its
/// status and, for anything but `used`, why.
public struct IndexSource: Sendable, Equatable {
    public var provider: String
    public var price: Decimal?
    public var time: Int64?
    public var status: IndexSourceStatus
    public var detail: String?

    public init(provider: String, price: Decimal? = nil, time: Int64? = nil, status: IndexSourceStatus, detail: String? = nil) {
        self.provider = provider
        self.price = price
        self.time = time
        self.status = status
        self.detail = detail
    }
}

/// What asking one constituent for one currency gave: a quote, a failure, or a skip (each
/// with the detail `/v1/index` shows).
public enum IndexObservation: Sendable, Equatable {
    case quote(IndexQuote)
    case failed(String)
    case skipped(String)
}
