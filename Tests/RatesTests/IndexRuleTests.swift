import Foundation
import Testing
@testable import Rates

/// The index rule without sockets: median of odd and even counts, the deviation filter,
/// staleness, bad prices, quorum, and exact decimals.
@Suite struct IndexRuleTests {
    static let now: Int64 = 1_704_456_000
    let rule = IndexRule(minSources: 3, maxDeviationPercent: 2, maxAgeSeconds: 120)

    func d(_ text: String) -> Decimal { DecimalText.parse(text) ?? .nan }

    func quotes(_ prices: [String], time: Int64? = IndexRuleTests.now) -> [(provider: String, observation: IndexObservation)] {
        prices.enumerated().map { ("p\($0.offset)", .quote(IndexQuote(price: d($0.element), time: time))) }
    }

    @Test func medianOfOddAndEvenCounts() {
        #expect(IndexRule.median([]) == nil)
        #expect(IndexRule.median([d("3"), d("1"), d("2")]) == d("2"))
        #expect(IndexRule.median([d("4"), d("1"), d("3"), d("2")]) == d("2.5"))
        #expect(IndexRule.median([d("43250.12"), d("43251")]) == d("43250.56"))
    }

    @Test func fiveAgreeingPricesGiveTheirMedian() {
        let index = rule.evaluate("USD", quotes(["43250.12", "43251.00", "43250.9", "43249.5", "43250.4"]), now: Self.now)
        #expect(index.value == d("43250.4"))
        #expect(index.median == d("43250.4"))
        #expect(index.sources.allSatisfy { $0.status == .used && $0.detail == nil })
    }

    @Test func aMisprintDeviatesAndMovesNothingButTheCount() {
        for factor in ["10", "0.5"] {
            let misprint = (d("43249.5") * d(factor)).description
            let index = rule.evaluate("USD", quotes(["43250.12", "43251.00", "43250.9", misprint, "43250.4"]), now: Self.now)
            #expect(index.sources[3].status == .deviates)
            #expect(index.sources[3].detail?.hasSuffix("% from the median") == true)
            // The four honest prices: an even count, the mean of the two middle ones.
            #expect(index.value == d("43250.65"))
        }
    }

    @Test func deviationIsMeasuredFromTheMedianInclusiveOfTheLimit() {
        // Median 100: 102 is exactly 2 % away (kept), 102.01 is not.
        let index = rule.evaluate("USD", quotes(["100", "98", "102", "102.01", "99"]), now: Self.now)
        #expect(index.median == d("100"))
        #expect(index.sources.map(\.status) == [.used, .used, .used, .deviates, .used])
        #expect(index.sources[3].detail == "2.0% from the median")
        #expect(index.value == d("99.5"))
    }

    @Test func staleTickersAreNotCandidates() {
        var observations = quotes(["100", "100.5", "101"])
        observations.append(("old", .quote(IndexQuote(price: d("50"), time: Self.now - 600))))
        observations.append(("timeless", .quote(IndexQuote(price: d("100.2"), time: nil))))
        let index = rule.evaluate("USD", observations, now: Self.now)
        #expect(index.sources[3].status == .stale)
        #expect(index.sources[3].detail == "ticker is 600 s old")
        #expect(index.sources[4].status == .used)
        #expect(index.median == d("100.35"))
        #expect(index.value == d("100.35"))
        // Exactly maxAgeSeconds old is still fresh.
        let edge = rule.evaluate("USD", quotes(["1", "1", "1"], time: Self.now - 120), now: Self.now)
        #expect(edge.value == d("1"))
    }

    @Test func nonPositiveOrAbsurdPricesFail() {
        let index = rule.evaluate("USD", quotes(["0", "-5", "1e40", "100", "100"]), now: Self.now)
        #expect(index.sources.map(\.status) == [.failed, .failed, .failed, .used, .used])
        #expect(index.sources[0].detail == "price 0 is not positive")
        #expect(index.value == nil)   // two left, quorum three
        #expect(index.median == d("100"))
    }

    @Test func quorumCountsWhatIsLeftAfterTheFilter() {
        var observations = quotes(["100", "100.5", "101"])
        observations.append(("down", .failed("kraken: HTTP 503")))
        observations.append(("held", .skipped("gemini: skipped: cooling down")))
        let three = rule.evaluate("USD", observations, now: Self.now)
        #expect(three.value == d("100.5"))
        #expect(three.sources[3] == IndexSource(provider: "down", status: .failed, detail: "kraken: HTTP 503"))
        #expect(three.sources[4].status == .skipped)
        let two = rule.evaluate("USD", Array(observations.dropFirst()), now: Self.now)
        #expect(two.value == nil)
        #expect(two.median == d("100.75"))
        let none = rule.evaluate("USD", [("down", .failed("x"))], now: Self.now)
        #expect(none.value == nil && none.median == nil)
    }

    @Test func decimalsStayExact() {
        // 20 significant digits: no Double could carry them.
        let index = rule.evaluate("USD", quotes(["43250.123456789012345678", "43250.123456789012345679"]), now: Self.now)
        #expect(index.value == nil)
        let exact = IndexRule(minSources: 2, maxDeviationPercent: 2, maxAgeSeconds: 120)
            .evaluate("USD", quotes(["43250.123456789012345678", "43250.123456789012345680"]), now: Self.now)
        #expect(exact.value?.description == "43250.123456789012345679")
    }

    @Test func composedTableTakesTheIndexAndCrossesTheRest() {
        let chain = RateTable(rates: ["USD": 40000, "EUR": 36000, "GBP": 30000, "JPY": 6_000_000], updated: 10, source: "coinbase")
        let report = IndexReport(updated: 20, quorum: 3, maxDeviationPercent: 2, currencies: [
            CurrencyIndex(currency: "USD", value: 44000, median: 44000, sources: []),
            CurrencyIndex(currency: "EUR", value: nil, median: nil, sources: []),
            CurrencyIndex(currency: "GBP", value: 33000, median: 33000, sources: []),
        ], crosses: "")
        let served = IndexedRates.compose(chain: chain, index: report)
        #expect(served.table.source == "index")
        #expect(served.table.updated == 20)
        #expect(served.table.rate("USD") == 44000)
        #expect(served.table.rate("GBP") == 33000)
        #expect(served.table.rate("EUR") == 36000)           // degraded: the chain's own
        #expect(served.table.rate("JPY") == 6_600_000)       // USD index × chain USD→JPY
        #expect(served.index?.crosses == "coinbase")
        #expect(served.index?.currencies[1].fallback == "coinbase")
        #expect(served.index?.isDegraded == true)
        let off = IndexedRates.compose(chain: chain, index: nil)
        #expect(off.table == chain && off.cacheValidator == chain.cacheValidator)
    }

    /// The CoinDesk disclaimer's exchanges are worked out with the value (a hit only reads
    /// them): the used constituents, each once, in the order the report first lists them; none
    /// when the chain served.
    @Test func disclaimerNamesTheUsedConstituentsOnce() {
        let chain = RateTable(rates: ["USD": 40000, "EUR": 36000, "GBP": 30000], updated: 10, source: "coinbase")
        let line = { (provider: String, status: IndexSourceStatus) in IndexSource(provider: provider, price: 44000, status: status) }
        let usd = CurrencyIndex(currency: "USD", value: 44000, median: 44000,
                                sources: [line("kraken", .used), line("gemini", .deviates), line("bitfinex", .used), line("bitstamp", .used)])
        let eur = CurrencyIndex(currency: "EUR", value: 36000, median: 36000,
                                sources: [line("kraken", .used), line("gemini", .used), line("bitfinex", .stale), line("bitstamp", .used)])
        let report = IndexReport(updated: 20, quorum: 3, maxDeviationPercent: 2, currencies: [usd, eur], crosses: "")
        #expect(IndexedRates.compose(chain: chain, index: report).disclaimerConstituents == ["kraken", "bitfinex", "bitstamp", "gemini"])
        var degraded = report
        degraded.currencies[0].value = nil
        #expect(IndexedRates.compose(chain: chain, index: degraded).disclaimerConstituents == [])
        #expect(IndexedRates.compose(chain: chain, index: nil).disclaimerConstituents == [])
    }

    /// `/v1/index`'s body is rendered with the value (a hit serves the stored bytes) and
    /// counted in its cache cost; none with the index off.
    @Test func indexBodyIsRenderedWithTheValue() {
        let chain = RateTable(rates: ["USD": 40000, "EUR": 36000, "GBP": 30000], updated: 10, source: "coinbase")
        let report = IndexReport(updated: 20, quorum: 3, maxDeviationPercent: 2, currencies: [
            CurrencyIndex(currency: "USD", value: 44000, median: 44000, sources: [IndexSource(provider: "kraken", price: 44000, status: .used)]),
        ], crosses: "")
        let served = IndexedRates.compose(chain: chain, index: report)
        guard let stored = served.index else { Issue.record("no report"); return }
        #expect(served.indexBody == IndexRenderer.render(stored))
        #expect(served.cacheCost == chain.cacheCost + stored.cost + IndexRenderer.render(stored).count)
        #expect(IndexedRates.compose(chain: chain, index: nil).indexBody == nil)
    }
}
