import Foundation
import Testing
import TestSupport
@testable import Rates

/// The rates value (table + index report) as the shared layer meets it: read back exactly,
/// refused when damaged or holding what the rule never produces.
@Suite struct IndexedRatesSharedCacheTests {
    static func d(_ text: String) -> Decimal { DecimalText.parse(text) ?? .nan }

    static let value: IndexedRates = {
        let chain = RateTable(rates: ["USD": 40000, "EUR": 36000, "JPY": 6_000_000], updated: 10, source: "coinbase")
        let report = IndexReport(updated: 20, quorum: 3, maxDeviationPercent: d("2.5"), currencies: [
            CurrencyIndex(currency: "USD", value: d("43250.4"), median: d("43250.4"), sources: [
                IndexSource(provider: "kraken", price: d("43250.9"), time: nil, status: .used),
                IndexSource(provider: "gemini", price: d("432495"), time: 19, status: .deviates, detail: "900.0% from the median"),
                IndexSource(provider: "bitfinex", status: .failed, detail: "bitfinex: HTTP 503"),
                IndexSource(provider: "bitstamp", price: d("-1"), time: 18, status: .failed, detail: "price -1 is not positive"),
            ]),
            CurrencyIndex(currency: "EUR", value: nil, median: nil, sources: [
                IndexSource(provider: "gemini", status: .skipped, detail: "gemini: skipped"),
            ]),
        ], crosses: "")
        return IndexedRates.compose(chain: chain, index: report)
    }()

    @Test func roundTripsExactly() {
        #expect(SharedCacheValueProbe.roundTripFindings(Self.value).isEmpty)
        let off = IndexedRates.compose(chain: Self.value.table, index: nil)
        #expect(SharedCacheValueProbe.roundTripFindings(off).isEmpty)
        #expect(IndexedRates(sharedCacheBytes: off.sharedCacheBytes)?.index == nil)
    }

    @Test func damageIsRefusedOrSelfConsistent() {
        var random = SplitMix64(seed: 25)
        #expect(SharedCacheValueProbe.damageFindings(Self.value, cases: 1_000, random: &random).isEmpty)
    }

    /// Values the rule never writes: an unknown status, a currency without its own index, a
    /// non-canonical or out-of-range decimal, a quorum of 0.
    @Test func refusesWhatTheRuleNeverProduces() {
        let bytes = Self.value.sharedCacheBytes
        func replacing(_ a: String, _ b: String) -> [UInt8] {
            let text = Array(a.utf8), with = Array(b.utf8)
            var out = bytes
            guard let at = (0...(out.count - text.count)).last(where: { Array(out[$0..<($0 + text.count)]) == text }) else {
                Issue.record("\(a) not in the record")
                return out
            }
            out.replaceSubrange(at..<(at + text.count), with: with)
            return out
        }
        #expect(IndexedRates(sharedCacheBytes: replacing("deviates", "deviated")) == nil)
        #expect(IndexedRates(sharedCacheBytes: replacing("43250.4", "43250.X")) == nil)
        #expect(IndexedRates(sharedCacheBytes: replacing("\u{3}EUR", "\u{3}JPY")) == nil)
        // The unchanged record reads (the replacements above are what made them fail).
        #expect(IndexedRates(sharedCacheBytes: replacing("deviates", "deviates")) == Self.value)
    }
}

/// The `shared-values` fuzz target's seed of the rates value with an index report is this
/// value's record as the code writes it now.
@Suite struct IndexedRatesSharedValueSeedTests {
    @Test func seedIsCurrent() {
        let seeds: [(name: String, bytes: [UInt8])] = [("indexed-rates", IndexedRatesSharedCacheTests.value.sharedCacheBytes)]
        #expect(FuzzSeeds.findings(target: "shared-values", seeds: seeds) == [])
    }
}
