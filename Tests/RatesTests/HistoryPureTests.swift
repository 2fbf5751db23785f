import HTTPClient
import Testing
@testable import Rates

/// The pure parts of history: days, fixed-point values, block arithmetic, block lifetimes,
/// coverage and crossing, CoinDesk's parameter rules. No sockets; "now" is an argument.
@Suite struct HistoryPureTests {
    static let jan1: Int64 = 19_723   // 2024-01-01

    @Test func daysParseStrictlyAndRoundTrip() {
        #expect(HistoryDay.parse("2024-01-01") == Self.jan1)
        #expect(HistoryDay.text(Self.jan1) == "2024-01-01")
        #expect(HistoryDay.parse("2010-07-17") == HistoryDay.coinDeskFirst)
        #expect(HistoryDay.parse("2011-08-18") == BitstampHistoryProvider.earliest)
        #expect(HistoryDay.parse("2015-07-20") == CoinbaseExchangeHistoryProvider.earliest)
        #expect(HistoryDay.parse("1999-01-04") == FrankfurterProvider.earliest)
        #expect(HistoryDay.parse("2024-02-29") != nil)
        for bad in ["2023-02-29", "2024-13-01", "2024-00-10", "2024-1-01", "2024-01-01 ", "", "0000-01-01",
                    "2024-01-0\u{301}", "２０２４-01-01", "2024/01/01", "2024-01-011", "abcd-ef-gh"] {
            #expect(HistoryDay.parse(bad) == nil, "\(bad)")
        }
        for day in stride(from: Int64(0), to: 40_000, by: 37) {
            #expect(HistoryDay.parse(HistoryDay.text(day)) == day)
        }
        #expect(HistoryDay.yesterday(unixSeconds: Self.jan1 * 86_400) == Self.jan1 - 1)
        #expect(HistoryDay.yesterday(unixSeconds: Self.jan1 * 86_400 + 86_399) == Self.jan1 - 1)
    }

    @Test func fixedPointParsesExactlyAndRendersAtMostFourDecimals() {
        #expect(HistoryFixed.parse("42280.23") == 4_228_023_000_000)
        #expect(HistoryFixed.parse("0.90498") == 90_498_000)
        #expect(HistoryFixed.parse("4.228e4") == 4_228_000_000_000)
        #expect(HistoryFixed.parse("1E-8") == 1)
        #expect(HistoryFixed.parse("0.000000005") == 1)     // half up at the eighth decimal
        for bad in ["0", "-1", "", ".", "1.", ".5", "NaN", "1e", "1e+-2", "1,5", "1 ", "99999999999999999999", "0.000000004"] {
            #expect(HistoryFixed.parse(bad) == nil, "\(bad)")
        }
        func text(_ v: Int64, _ decimals: Int = 4) -> String {
            var out: [UInt8] = []
            HistoryFixed.append(v, decimals: decimals, to: &out)
            return String(decoding: out, as: UTF8.self)
        }
        #expect(text(4_228_023_000_000) == "42280.23")
        #expect(text(4_228_023_455_000) == "42280.2346")
        #expect(text(100_000_000) == "1")
        #expect(text(5_000) == "0.0001")
        #expect(text(4_999) == "0")
        #expect(text(90_498_123, 8) == "0.90498123")
        // close × rate, rounded half up to four decimals.
        #expect(HistoryFixed.product(4_228_023_000_000, 14_190_000_000) == 599_956_463_700_000)   // 5999564.637 → 5999564.637
        #expect(HistoryFixed.product(100_005_000, 100_000_000) == 100_010_000)                  // 1.00005 → 1.0001
        #expect(HistoryFixed.product(Int64.max, Int64.max) == nil)
    }

    /// Any bytes: an answer (a value or nil), never a trap; plain decimals round-trip exactly.
    @Test func parsersSurviveArbitraryInput() {
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789.-+eE ,x\u{0}\u{301}٣".unicodeScalars)
        for _ in 0..<20_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...24, using: &rng) { text.unicodeScalars.append(alphabet.randomElement(using: &rng)!) }
            _ = HistoryFixed.parse(text)
            _ = HistoryDay.parse(text)
        }
        for _ in 0..<2_000 {
            let units = Int64.random(in: 1...9_000_000_000_000_000, using: &rng)
            var out: [UInt8] = []
            HistoryFixed.append(units, decimals: 8, to: &out)
            #expect(HistoryFixed.parse(String(decoding: out, as: UTF8.self)) == units)
        }
    }

    @Test func blocksAreAlignedAndACostBoundHolds() {
        let plan = HistoryBlockPlan(size: 1000, earliest: BitstampHistoryProvider.earliest)
        #expect(plan.span(19) == 19_000...19_999)
        #expect(plan.indexes(covering: 18_999...19_000) == 18...19)
        // Every range of N days touches at most ⌈N/size⌉ + 1 blocks.
        var rng = SystemRandomNumberGenerator()
        for size in [Int64(300), 366, 1000] {
            let p = HistoryBlockPlan(size: size, earliest: 0)
            for _ in 0..<500 {
                let start = Int64.random(in: 15_000...20_000, using: &rng), n = Int64.random(in: 1...4_000, using: &rng)
                let blocks = p.indexes(covering: start...(start + n - 1)).count
                #expect(Int64(blocks) <= (n + size - 1) / size + 1)
            }
        }
        // Fetch spans stop at the provider's first day and at yesterday.
        let first = plan.index(of: BitstampHistoryProvider.earliest)
        #expect(plan.fetchSpan(first, yesterday: 20_000) == BitstampHistoryProvider.earliest...plan.span(first).upperBound)
        #expect(plan.fetchSpan(first - 1, yesterday: 20_000) == nil)
        #expect(plan.fetchSpan(20, yesterday: 20_500) == 20_000...20_500)
        #expect(plan.fetchSpan(21, yesterday: 20_500) == nil)
        #expect(plan.key(provider: "bitstamp", series: "USD", index: 20, yesterday: 20_500)?.through == 20_500)
        #expect(plan.key(provider: "bitstamp", series: "USD", index: 19, yesterday: 20_500)?.through == 19_999)
    }

    @Test func blockLifetimesNeverTreatYesterdaysGapOrTodayAsFinal() {
        let plan = HistoryBlockPlan(size: 1000, earliest: 0)
        let ttl = 2_592_000.0
        let yesterday: Int64 = 20_500
        let now = (yesterday + 1) * 86_400 + 3_600     // 01:00 UTC today
        let complete = HistoryBlockKey(provider: "bitstamp", series: "USD", index: 19, through: 19_999)
        #expect(HistoryBlockLifetime.of(key: complete, hasLastDay: true, plan: plan, yesterday: yesterday, nowSeconds: now,
                                        ttlSeconds: ttl, retrySeconds: 60) == .init(ttlSeconds: ttl, staleSeconds: ttl))
        let filling = HistoryBlockKey(provider: "bitstamp", series: "USD", index: 20, through: yesterday)
        // Cut at yesterday: fresh until the next midnight (23 h), when the key turns over.
        #expect(HistoryBlockLifetime.of(key: filling, hasLastDay: true, plan: plan, yesterday: yesterday, nowSeconds: now,
                                        ttlSeconds: ttl, retrySeconds: 60) == .init(ttlSeconds: 82_800, staleSeconds: 0))
        // The upstream had not closed yesterday yet: retried soon, never served stale.
        #expect(HistoryBlockLifetime.of(key: filling, hasLastDay: false, plan: plan, yesterday: yesterday, nowSeconds: now,
                                        ttlSeconds: ttl, retrySeconds: 60) == .init(ttlSeconds: 60, staleSeconds: 0))
        // A block whose last day is exactly yesterday is complete, but only once that day is in it.
        let endsYesterday = HistoryBlockKey(provider: "bitstamp", series: "USD", index: 19, through: 19_999)
        #expect(HistoryBlockLifetime.of(key: endsYesterday, hasLastDay: false, plan: plan, yesterday: 19_999,
                                        nowSeconds: 20_000 * 86_400, ttlSeconds: ttl, retrySeconds: 60).ttlSeconds == 60)
    }

    @Test func coverageSplitsAtAProvidersFirstDay() {
        #expect(HistoryCoverage.split(100...200, earliest: 150)! == (150...200, 100...149))
        #expect(HistoryCoverage.split(100...200, earliest: 50)! == (100...200, nil))
        #expect(HistoryCoverage.split(100...200, earliest: 201) == nil)
    }

    @Test func crossingCarriesTheLatestECBBusinessDayForward() {
        // Friday 2024-01-05 has a rate; the weekend uses it; Monday has its own.
        let friday = Self.jan1 + 4
        let fx = HistoryBlock(span: (friday - 3)...(friday + 3),
                              values: ["JPY": [friday: 14_000_000_000, friday + 3: 15_000_000_000]], fetchedAt: 0)
        let usd: [Int64] = [Int64](repeating: 10_000_000_000, count: 5)    // 100.0 on Fri…Tue (Tue carries Monday)
        let crossed = HistoryCoverage.crossed(usd, firstDay: friday, code: "JPY", fx: [fx], lookback: 10)
        #expect(crossed == [1_400_000_000_000, 1_400_000_000_000, 1_400_000_000_000, 1_500_000_000_000, 1_500_000_000_000])
        // Past the look-back, no value.
        #expect(HistoryCoverage.crossed(usd, firstDay: friday, code: "JPY", fx: [fx], lookback: 1)[2] == 0)
        #expect(HistoryCoverage.crossed(usd, firstDay: friday, code: "CHF", fx: [fx], lookback: 10) == [0, 0, 0, 0, 0])
    }

    @Test func coinDeskParametersDefaultsClampingAndRefusals() throws {
        let y = Self.jan1
        func parse(start: String? = nil, end: String? = nil, currency: String? = nil, for f: String? = nil, index: String? = nil)
            -> Result<CoinDeskCloseQuery, CoinDeskCloseQuery.Failure> {
            CoinDeskCloseQuery.parse(start: start, end: end, currency: currency, for: f, index: index, yesterday: y)
        }
        #expect(try parse().get() == CoinDeskCloseQuery(code: "USD", label: "USD", days: (y - 30)...y, relative: true))
        #expect(try parse(start: "2023-01-01", end: "2023-12-31", for: "yesterday").get().days == y...y)
        #expect(try parse(start: "2023-12-01", end: "2030-01-01", currency: "eur").get()
                == CoinDeskCloseQuery(code: "EUR", label: "EUR", days: (Self.jan1 - 31)...y, relative: true))
        #expect(try parse(start: "2023-12-01", end: "2023-12-02", currency: "XBT").get()
                == CoinDeskCloseQuery(code: "BTC", label: "XBT", days: (Self.jan1 - 31)...(Self.jan1 - 30), relative: false))
        #expect(try parse(start: "2023-12-01", end: "2023-12-01", currency: "jpy", index: "usd").get().code == "JPY")

        func refusal(_ r: Result<CoinDeskCloseQuery, CoinDeskCloseQuery.Failure>) -> String? {
            if case .failure(.refused(let why)) = r { return why.rawValue }
            return nil
        }
        func malformed(_ r: Result<CoinDeskCloseQuery, CoinDeskCloseQuery.Failure>) -> String? {
            if case .failure(.malformed(let e)) = r { return e.detail }
            return nil
        }
        #expect(malformed(parse(index: "u\u{17F}d"))?.contains("index") == true)
        #expect(malformed(parse(for: "yesterday\u{301}"))?.contains("for") == true)
        #expect(refusal(parse(currency: "ARS")) == "Sorry, that currency was not found")
        #expect(refusal(parse(currency: "dollars")) == "Sorry, that currency was not found")
        #expect(refusal(parse(start: "2010-07-16", end: "2011-01-01")) == "Sorry, the CoinDesk BPI only covers data from 2010-07-17 onwards.")
        #expect(refusal(parse(start: "2023-02-01", end: "2023-01-01")) == "Sorry, but your specified end date is before your start date.")
        #expect(refusal(parse(start: "2024-01-02", end: "2024-02-01")) == "Sorry, but your specified end date is before your start date.")
        #expect(malformed(parse(start: "2024-01-01"))?.contains("end") == true)
        #expect(malformed(parse(end: "2024-01-01"))?.contains("start") == true)
        #expect(malformed(parse(start: "2024-1-1", end: "2024-01-02"))?.contains("start") == true)
        #expect(malformed(parse(start: "2024-01-01", end: "tomorrow"))?.contains("end") == true)
        #expect(malformed(parse(index: "EUR"))?.contains("index") == true)
        // CoinDesk documented index=[USD/CNY]: without currency, the index names it.
        #expect(try parse(index: "CNY").get().code == "CNY")
        #expect(try parse(index: "cny").get().label == "CNY")
        #expect(try parse(currency: "EUR", index: "CNY").get().code == "EUR")
        #expect(malformed(parse(for: "today"))?.contains("for") == true)
    }

    @Test func ownRangeRules() throws {
        let y = Self.jan1
        #expect(try HistoryInput.range(start: "2023-12-01", end: "2023-12-31", yesterday: y) == ((y - 31)...(y - 1), false))
        #expect(try HistoryInput.range(start: "2023-12-01", end: "2099-12-31", yesterday: y) == ((y - 31)...y, true))
        for (start, end) in [(nil, "2023-01-01"), ("2023-01-01", nil), ("2023-01-02", "2023-01-01"), ("2024-01-02", "2024-01-03"), ("x", "2023-01-01")] {
            #expect(throws: RatesInputError.self) { try HistoryInput.range(start: start, end: end, yesterday: y) }
        }
        #expect(try HistoryInput.date("2023-12-31", yesterday: y) == y - 1)
        #expect(throws: RatesInputError.self) { try HistoryInput.date("2024-01-02", yesterday: y) }
        #expect(try HistoryInput.historyCode("XBT") == "BTC")
        #expect(throws: RatesInputError.self) { try HistoryInput.historyCode("ARS") }
    }
}

/// `HistoryAnswerCheck`: which exchange answers may be stored as a block.
@Suite struct HistoryAnswerCheckTests {
    static let jan1: Int64 = 19_723
    let span = jan1...(jan1 + 4)

    func check(_ days: [Int64], yesterday: Int64 = 30_000, gapsAllowed: Bool = false) throws(UpstreamError) {
        try HistoryAnswerCheck.check(Dictionary(uniqueKeysWithValues: days.map { ($0, 1) }), span: span,
                                     yesterday: yesterday, provider: "bitstamp", gapsAllowed: gapsAllowed)
    }

    @Test func everyDayAccountedForIsStored() throws {
        try check(Array(span))
        // Yesterday may be missing (not closed yet): that block is stored briefly, not failed.
        try check(Array(span.dropLast()), yesterday: span.upperBound)
    }

    @Test func anEmptyAnswerIsAFailureEvenForTheLastExchange() {
        for gapsAllowed in [false, true] {
            #expect(throws: UpstreamError(.malformed, provider: "bitstamp",
                                          detail: "answered no close for the days asked (2024-01-01…2024-01-05)")) {
                try check([], gapsAllowed: gapsAllowed)
            }
        }
    }

    @Test func gapsFailWhileAnotherExchangeIsLeft() throws {
        #expect(throws: UpstreamError(.malformed, provider: "bitstamp",
                                      detail: "answered without 2 of the days asked (2024-01-01…2024-01-05), the first 2024-01-02")) {
            try check([Self.jan1, Self.jan1 + 2, Self.jan1 + 4])
        }
        // The last exchange: a day no exchange holds is stored absent.
        try check([Self.jan1, Self.jan1 + 2, Self.jan1 + 4], gapsAllowed: true)
    }
}

