import Foundation

/// One currency's index at one refresh: the value (nil when the quorum was not met), the
/// median before the deviation filter, every constituent's line, and, when degraded, the chain
/// provider whose own rate was served instead.
public struct CurrencyIndex: Sendable, Equatable {
    public var currency: String
    public var value: Decimal?
    public var median: Decimal?
    public var sources: [IndexSource]
    /// The chain provider that served this currency because the quorum was not met.
    public var fallback: String?

    public init(currency: String, value: Decimal?, median: Decimal?, sources: [IndexSource], fallback: String? = nil) {
        self.currency = currency
        self.value = value
        self.median = median
        self.sources = sources
        self.fallback = fallback
    }
}
