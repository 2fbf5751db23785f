import Base
import Foundation

/// The whole index at one refresh (`GET /v1/index`): USD, EUR and GBP each with their
/// constituents' lines, the settings they were judged by, and the chain provider whose table
/// supplied the crosses to every other currency.
public struct IndexReport: Sendable, Equatable {
    /// The currencies with an index of their own, in `/v1/index` order.
    public static let currencies = ["USD", "EUR", "GBP"]

    /// Unix seconds of the refresh.
    public var updated: Int64
    public var quorum: Int
    public var maxDeviationPercent: Decimal
    public var currencies: [CurrencyIndex]
    /// The chain provider whose table gave the crosses (and any fallback).
    public var crosses: String

    public init(updated: Int64, quorum: Int, maxDeviationPercent: Decimal, currencies: [CurrencyIndex], crosses: String) {
        self.updated = updated
        self.quorum = quorum
        self.maxDeviationPercent = maxDeviationPercent
        self.currencies = currencies
        self.crosses = crosses
    }

    /// The index of `code`, when it has one of its own and reached its quorum.
    public func value(_ code: String) -> Decimal? {
        currencies.first { $0.currency == code }?.value
    }

    /// True when a currency fell back to the chain's own rate.
    public var isDegraded: Bool { currencies.contains { $0.value == nil } }

    /// Providers whose price went into at least one currency's index, in constituent order.
    public var usedProviders: [String] {
        var seen: [String] = []
        for currency in currencies {
            for source in currency.sources where source.status == .used && !seen.contains(source.provider) {
                seen.append(source.provider)
            }
        }
        return seen
    }

    /// Folds every field into `digest` (the cached value's validator).
    func combine(into digest: inout ContentDigest) {
        digest.combine(String(updated))
        digest.combine(String(quorum))
        digest.combine(maxDeviationPercent.description)
        digest.combine(crosses)
        for currency in currencies {
            digest.combine(currency.currency)
            digest.combine(currency.value?.description ?? "-")
            digest.combine(currency.median?.description ?? "-")
            digest.combine(currency.fallback ?? "-")
            for source in currency.sources {
                digest.combine(source.provider)
                digest.combine(source.price?.description ?? "-")
                digest.combine(source.time.map { String($0) } ?? "-")
                digest.combine(source.status.rawValue)
                digest.combine(source.detail ?? "-")
            }
        }
    }

    /// Approximate bytes held.
    var cost: Int { 64 + currencies.reduce(0) { $0 + 64 + $1.sources.count * 160 } }
}
