import Base
import Cache
import Foundation
import HTTPClient
import TestSupport
import Testing
@testable import Rates

@Suite struct RateTableSharedCacheTests {
    static let kinds: [UpstreamError.Kind] = [.dns, .connectionRefused, .connectionReset, .tls, .timeout, .tooLarge,
                                               .malformed, .truncated, .redirected, .invalidURL, .cancelled, .other]

    static let full = RateTable(
        rates: ["USD": Decimal(string: "91234.56")!, "EUR": Decimal(string: "84000.123456789012345678901234567890")!,
                "JPY": Decimal(string: "13700000")!, "XAU": Decimal(string: "0.00000000000000000000000000012345")!],
        updated: 1_764_000_000, source: "coindesk",
        upstreamCurrencies: ["PLN": Currency(code: "PLN", name: "Polish złoty", symbol: "zł"),
                             "XAU": Currency(code: "XAU", name: "Gold (troy ounce) 🪙", symbol: nil),
                             "ILS": Currency(code: "ILS", name: "שקל חדש", symbol: "₪")],
        unavailable: ["GBP": UpstreamError(.malformed, provider: "coindesk", detail: "field bpi.GBP.rate_float: zero",
                                           diagnostic: "rate 0", url: "https://api.example/v1/bpi?key=REDACTED"),
                      "CHF": UpstreamError(.other, provider: "coindesk", detail: "negative")])

    @Test func aFullTableRoundTripsWithItsValidator() {
        #expect(SharedCacheValueProbe.roundTripFindings(Self.full).isEmpty)
        let decoded = RateTable(sharedCacheBytes: Self.full.sharedCacheBytes)
        #expect(decoded?.cacheValidator == Self.full.cacheValidator)
        #expect(decoded?.codes == Self.full.codes)
        #expect(decoded?.unavailable["GBP"]?.url == "https://api.example/v1/bpi?key=REDACTED")
        #expect(decoded?.upstreamCurrencies["XAU"]?.symbol == nil)
        #expect(decoded?.rate("EUR")?.description == "84000.12345678901234567890123456789")
    }

    /// What a replica serves from a table it read from the shared layer is byte for byte what
    /// the replica that loaded it serves, on every rates route, errors included.
    @Test func aDecodedTableRendersTheSameBytes() throws {
        let table = RateTable(rates: ["USD": Decimal(string: "91234.56")!, "EUR": Decimal(string: "84000.123456789012345678901234567890")!,
                                      "JPY": Decimal(string: "13700000")!, "PLN": Decimal(string: "371234.5")!],
                              updated: 1_764_000_000, source: "coindesk",
                              upstreamCurrencies: Self.full.upstreamCurrencies, unavailable: Self.full.unavailable)
        let decoded = try #require(RateTable(sharedCacheBytes: table.sharedCacheBytes))
        let queries: [RatesQuery] = [
            .rates(base: "BTC", symbols: nil), .rates(base: "EUR", symbols: ["USD", "PLN"]), .rate(code: "JPY", base: "USD"),
            .convert(from: "EUR", to: "PLN", amount: Decimal(string: "12.5")!), .currencies, .bpiCurrentPrice,
            .bpiCurrentPriceIn(code: "PLN"), .bpiSupportedCurrencies, .rate(code: "GBP", base: "USD"), .rates(base: "XYZ", symbols: nil),
        ]
        for query in queries {
            let original = Result { () throws(RatesInputError) in try RatesRenderer.render(query, table: table) }
            let fromBytes = Result { () throws(RatesInputError) in try RatesRenderer.render(query, table: decoded) }
            #expect(original == fromBytes, "\(query)")
        }
    }

    @Test func edgeTablesRoundTrip() {
        let tables = [
            RateTable(rates: [:], updated: 0, source: ""),
            RateTable(rates: ["USD": 1], updated: TimestampText.writableRange.lowerBound, source: "coinbase"),
            RateTable(rates: ["USD": 1], updated: TimestampText.writableRange.upperBound, source: "coingecko",
                      upstreamCurrencies: [:], unavailable: [:]),
            // Every unavailable currency, no rate besides BTC.
            RateTable(rates: [:], updated: 1, source: "coinbase",
                      unavailable: Dictionary(uniqueKeysWithValues: Self.kinds.enumerated().map { index, kind in
                          ("C" + String(UnicodeScalar(UInt8(65 + index))) + "X", UpstreamError(kind, provider: "coinbase", detail: "d\(index)"))
                      })),
            // The usable extremes, and all of Decimal's 38 digits.
            RateTable(rates: ["MAX": Decimal(sign: .plus, exponent: 30, significand: 1),
                              "MIN": Decimal(sign: .plus, exponent: -30, significand: 1),
                              "DIG": Decimal(string: "1234567890.1234567890123456789012345678")!,
                              "SML": Decimal(sign: .plus, exponent: -67, significand: Decimal(string: "10000000000000000000000000000000000001")!)],
                      updated: 5, source: "x"),
        ]
        for table in tables {
            #expect(SharedCacheValueProbe.roundTripFindings(table).isEmpty, "\(table)")
        }
    }

    /// Random tables as the builder makes them (three-letter codes, rates from 1e-30 to 1e30
    /// with up to 38 digits, times of the years 0000–9999) with unicode names, symbols, sources
    /// and error texts, and unavailable entries of every kind, round trip exactly.
    @Test func randomTablesRoundTrip() {
        var random = SplitMix64(seed: 0x7A_B1E)
        for n in 0..<500 {
            let table = Self.randomTable(&random)
            let findings = SharedCacheValueProbe.roundTripFindings(table)
            #expect(findings.isEmpty, "table \(n): \(findings)")
        }
    }

    /// Damaged records never trap; they read as nil or as a table that writes the same bytes.
    @Test func damagedBytesNeverTrap() {
        var random = SplitMix64(seed: 0xDA_3A6E)
        #expect(SharedCacheValueProbe.damageFindings(Self.full, cases: 1_000, random: &random).isEmpty)
        for _ in 0..<10 {
            let findings = SharedCacheValueProbe.damageFindings(Self.randomTable(&random), cases: 100, random: &random)
            #expect(findings.isEmpty, "\(findings.prefix(5))")
        }
    }

    /// What no table the service builds holds is refused: non-canonical decimal text, a rate
    /// outside 1e-30…1e30, a code that is not three upper-case letters, a missing or wrong BTC
    /// rate, an unavailable code that has a rate, an unknown error kind, a time past 9999.
    @Test func recordsNoWriterProducesAreRefused() {
        func record(rates: [String: String], unavailableKind: String = "malformed", unavailableCode: String = "GBP",
                    updated: Int64 = 1) -> [UInt8] {
            var writer = BinaryRecordWriter(format: RateTable.sharedFormat)
            writer.write(updated)
            writer.write("coinbase")
            writer.writeMap(rates) { $0.write($1) }
            writer.writeMap([String: Int]()) { $0.write($1) }
            writer.writeMap([unavailableCode: unavailableKind]) { writer, kind in
                writer.write(kind); writer.write("p"); writer.write("d"); writer.write(""); writer.write(optional: nil as String?)
            }
            return writer.bytes
        }
        #expect(RateTable(sharedCacheBytes: record(rates: ["BTC": "1", "USD": "2.5"])) != nil)
        #expect(RateTable(sharedCacheBytes: record(rates: ["BTC": "1", "USD": "2.50"])) == nil)
        #expect(RateTable(sharedCacheBytes: record(rates: ["BTC": "1", "USD": "25e-1"])) == nil)
        #expect(RateTable(sharedCacheBytes: record(rates: ["BTC": "1", "USD": "NaN"])) == nil)
        #expect(RateTable(sharedCacheBytes: record(rates: ["BTC": "1", "USD": " 2.5"])) == nil)
        #expect(RateTable(sharedCacheBytes: record(rates: ["USD": "2.5"])) == nil)
        #expect(RateTable(sharedCacheBytes: record(rates: ["BTC": "2", "USD": "2.5"])) == nil)
        #expect(RateTable(sharedCacheBytes: record(rates: ["BTC": "1", "GBP": "2.5"])) == nil)
        #expect(RateTable(sharedCacheBytes: record(rates: ["BTC": "1"], unavailableKind: "meteor")) == nil)
        #expect(RateTable(sharedCacheBytes: record(rates: ["BTC": "1", "USD": "1000000000000000000000000000000"])) != nil)
        #expect(RateTable(sharedCacheBytes: record(rates: ["BTC": "1", "USD": "1000000000000000000000000000001"])) == nil)
        #expect(RateTable(sharedCacheBytes: record(rates: ["BTC": "1", "USD": "0.0000000000000000000000000000009"])) == nil)
        #expect(RateTable(sharedCacheBytes: record(rates: ["BTC": "1", "usd": "2"])) == nil)
        #expect(RateTable(sharedCacheBytes: record(rates: ["BTC": "1", "USDC": "2"])) == nil)
        #expect(RateTable(sharedCacheBytes: record(rates: ["BTC": "1"], unavailableCode: "gbp")) == nil)
        #expect(RateTable(sharedCacheBytes: record(rates: ["BTC": "1"], updated: TimestampText.writableRange.upperBound)) != nil)
        #expect(RateTable(sharedCacheBytes: record(rates: ["BTC": "1"], updated: TimestampText.writableRange.upperBound + 1)) == nil)
        #expect(RateTable(sharedCacheBytes: record(rates: ["BTC": "1"], updated: Int64.min)) == nil)
        var wrongVersion = Self.full.sharedCacheBytes
        wrongVersion[1] = 2
        #expect(RateTable(sharedCacheBytes: wrongVersion) == nil)
        #expect(RateTable(sharedCacheBytes: []) == nil)
    }

    static func randomTable(_ random: inout SplitMix64) -> RateTable {
        var rates: [String: Decimal] = [:]
        for _ in 0..<Int(random.next() % 40) {
            rates[randomKey(&random)] = randomRate(&random)
        }
        var currencies: [String: Currency] = [:]
        for _ in 0..<Int(random.next() % 6) {
            let code = randomKey(&random)
            currencies[code] = Currency(code: code,
                                        name: random.text(maxScalars: 20),
                                        symbol: random.oneIn(3) ? nil : random.text(maxScalars: 3))
        }
        var unavailable: [String: UpstreamError] = [:]
        for _ in 0..<Int(random.next() % 4) {
            unavailable[randomKey(&random)] = UpstreamError(kinds[Int(random.next() % UInt64(kinds.count))],
                                                            provider: random.text(maxScalars: 10), detail: random.text(maxScalars: 30),
                                                            diagnostic: random.text(maxScalars: 30),
                                                            url: random.oneIn(2) ? nil : random.text(maxScalars: 40))
        }
        let writable = TimestampText.writableRange
        let updated = random.oneIn(10) ? writable.lowerBound
            : writable.lowerBound + Int64(random.next() % UInt64(writable.upperBound - writable.lowerBound + 1))
        return RateTable(rates: rates, updated: updated, source: random.text(maxScalars: 12),
                         upstreamCurrencies: currencies, unavailable: unavailable)
    }

    static func randomKey(_ random: inout SplitMix64) -> String {
        return String((0..<3).map { _ in Character(Unicode.Scalar(UInt8(65 + random.next() % 26))) })
    }

    /// 1e-30…1e30: 38 digits (`1ddd…` × 10^e, e in −67…−8) or up to nine (`n` × 10^e, e in −30…21).
    static func randomRate(_ random: inout SplitMix64) -> Decimal {
        if random.oneIn(4) {
            let digits = String((0..<37).map { _ in Character(Unicode.Scalar(UInt8(48 + random.next() % 10))) })
            return Decimal(sign: .plus, exponent: Int(random.next() % 60) - 67, significand: Decimal(string: "1" + digits)!)
        }
        return Decimal(sign: .plus, exponent: Int(random.next() % 52) - 30, significand: Decimal(random.next() % 999_999_999 + 1))
    }
}

/// Found by `randomTablesRoundTrip`: the validator sorted codes with `String`'s `<`, which is
/// not consistent beside U+212A KELVIN SIGN, so the same table read back from another
/// replica's bytes (its dictionary filled in another order) could get another validator.
@Suite struct RateTableOrderTests {
    @Test func validatorAndCodesDoNotDependOnInsertionOrder() {
        let keys = ["KRW", "\u{212A}", "KBR", "KA", "USD", "e\u{301}", "ñ"]
        var tables: [RateTable] = []
        for rotation in 0..<keys.count {
            let rotated = Array(keys[rotation...] + keys[..<rotation])
            var rates: [String: Decimal] = [:]
            var currencies: [String: Currency] = [:]
            for key in rotated {
                rates[key] = Decimal(keys.firstIndex(of: key)! + 2)
                currencies[key] = Currency(code: key, name: key, symbol: nil)
            }
            tables.append(RateTable(rates: rates, updated: 1, source: "s", upstreamCurrencies: currencies))
        }
        #expect(Set(tables.map(\.cacheValidator)).count == 1)
        #expect(Set(tables.map(\.codes)).count == 1)
        #expect(tables[0].codes.prefix(3) == ["BTC", "KA", "KBR"])
    }
}

/// The `shared-values` fuzz target's seeds of rate tables and history blocks are these values'
/// records as the code writes them now.
@Suite struct RatesSharedValueSeedTests {
    static func envelope(_ namespace: String, _ key: [UInt8], _ value: some SharedCacheValue) -> [UInt8] {
        SharedEnvelope(storedAtMilliseconds: 1_700_000_000_000, expiresAtMilliseconds: 1_700_000_060_000,
                       staleUntilMilliseconds: 1_700_000_660_000, key: SharedEnvelope.key(namespace: namespace, key: key),
                       validator: value.cacheValidator, value: value.sharedCacheBytes).encoded ?? []
    }

    @Test func seedsAreCurrent() {
        let seeds: [(name: String, bytes: [UInt8])] = [
            ("rates-full", RateTableSharedCacheTests.full.sharedCacheBytes),
            ("rates-empty", RateTable(rates: [:], updated: 0, source: "").sharedCacheBytes),
            ("history-block", HistoryBlockSharedCacheTests.block.sharedCacheBytes),
            ("history-empty", HistoryBlock(firstDay: 0, dayCount: 0, series: [:], fetchedAt: 0).sharedCacheBytes),
            // Whole envelopes as a replica stores them at the fuzz's clock (1_700_000_000_000 ms),
            // under the fuzz's keys, and the steward script's status fields.
            ("envelope-rates", Self.envelope("rates", Array("table".utf8), RateTableSharedCacheTests.full)),
            ("envelope-history", Self.envelope("history", Array("bitstamp:USD:2000:20009".utf8), HistoryBlockSharedCacheTests.block)),
            ("steward-status", Array("1\n30\n0\n2\n0\n3.5\n0.25\n0,3,1;2,1,0".utf8)),
        ]
        #expect(FuzzSeeds.findings(target: "shared-values", seeds: seeds) == [])
    }
}
