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

    @Test func edgeTablesRoundTrip() {
        let tables = [
            RateTable(rates: [:], updated: 0, source: ""),
            RateTable(rates: ["USD": 1], updated: Int64.min, source: "coinbase"),
            RateTable(rates: ["USD": 1], updated: Int64.max, source: "coingecko", upstreamCurrencies: [:], unavailable: [:]),
            // Every unavailable currency, no rate besides BTC.
            RateTable(rates: [:], updated: 1, source: "coinbase",
                      unavailable: Dictionary(uniqueKeysWithValues: Self.kinds.enumerated().map { index, kind in
                          ("C\(index)", UpstreamError(kind, provider: "coinbase", detail: "d\(index)"))
                      })),
            // Decimal's extremes: 38 digits, exponents −128 and 127.
            RateTable(rates: ["MAX": Decimal(sign: .plus, exponent: 127, significand: Decimal(string: "99999999999999999999999999999999999999")!),
                              "MIN": Decimal(sign: .plus, exponent: -128, significand: 1)],
                      updated: 5, source: "x"),
        ]
        for table in tables {
            #expect(SharedCacheValueProbe.roundTripFindings(table).isEmpty, "\(table)")
        }
    }

    /// Random tables (unicode names, symbols and sources, rates from 1e-30 to 1e30 with up to
    /// 38 digits, unavailable entries of every kind) round trip exactly.
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
        #expect(SharedCacheValueProbe.damageFindings(Self.full, cases: 5_000, random: &random).isEmpty)
        for _ in 0..<20 {
            let findings = SharedCacheValueProbe.damageFindings(Self.randomTable(&random), cases: 250, random: &random)
            #expect(findings.isEmpty, "\(findings.prefix(5))")
        }
    }

    /// What no writer produces is refused: non-canonical decimal text, a missing or wrong BTC
    /// rate, an unavailable code that has a rate, an unknown error kind.
    @Test func recordsNoWriterProducesAreRefused() {
        func record(rates: [String: String], unavailableKind: String = "malformed", unavailableCode: String = "GBP") -> [UInt8] {
            var writer = BinaryRecordWriter(format: RateTable.sharedFormat)
            writer.write(Int64(1))
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
            currencies[code] = Currency(code: random.oneIn(8) ? random.text(maxScalars: 4) : code,
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
        let updated = random.oneIn(10) ? Int64.min : Int64(bitPattern: random.next()) >> Int64(random.next() % 64)
        return RateTable(rates: rates, updated: updated, source: random.text(maxScalars: 12),
                         upstreamCurrencies: currencies, unavailable: unavailable)
    }

    /// Mostly three-letter codes, sometimes any text (the codec does not care what a key says).
    static func randomKey(_ random: inout SplitMix64) -> String {
        if random.oneIn(5) { return random.text(maxScalars: 5) }
        return String((0..<3).map { _ in Character(Unicode.Scalar(UInt8(65 + random.next() % 26))) })
    }

    static func randomRate(_ random: inout SplitMix64) -> Decimal {
        if random.oneIn(4) {
            let digits = String((0..<38).map { _ in Character(Unicode.Scalar(UInt8(48 + random.next() % 10))) })
            return Decimal(sign: .plus, exponent: Int(random.next() % 61) - 30 - 37, significand: Decimal(string: "1" + digits.dropFirst())!)
        }
        return Decimal(sign: .plus, exponent: Int(random.next() % 61) - 30, significand: Decimal(random.next() % 1_000_000_000 + 1))
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
