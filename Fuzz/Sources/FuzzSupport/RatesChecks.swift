// What every rates decoder promises, checked on every input:
// - the body either decodes or fails with `UpstreamError(.malformed)` naming the provider;
// - a decoded table has BTC = 1, at least one other code, only three-letter upper-case codes,
//   only rates within 1e-30…1e30 (RateTableBuilder.usableRates), `codes` = sorted keys, and
//   currencies only for quoted codes;
// - every rate is exactly the value of an upstream entry for that code, and every upstream
//   entry with a value in range is in the table (nothing invented, nothing lost), and every
//   other one is marked unavailable with an error naming the provider and the field;
// - `updated` is a date-time almanac can write as RFC 3339 (a four-digit year);
// - the table renders (rates, a cross rate, convert, currencies, the CoinDesk BPI formats)
//   to valid JSON, and base-BTC rates survive the Decimal → JSON text → Decimal trip exactly.
import Base
import Foundation
import HTTPClient
import Rates

public enum RatesFuzz {
    /// Fixed fetch time handed to the decoders (2025-01-04T14:13:20Z).
    public static let fetchedAt: Int64 = 1_736_000_000

    /// 0000-01-01T00:00:00Z … 9999-12-31T23:59:59Z: what RFC 3339's four-digit year can write
    /// (spelled out here rather than read from TimestampText, so the check is independent).
    public static let writableUpdated: ClosedRange<Int64> = -62_167_219_200...253_402_300_799

    /// Rates a table keeps (RateTableBuilder.usableRates, internal to Rates).
    public static let usableRates: ClosedRange<Decimal> = Decimal(sign: .plus, exponent: -30, significand: 1)...Decimal(sign: .plus, exponent: 30, significand: 1)

    /// Runs one input through `decode` and checks the outcome. `entries` lists, per upper-cased
    /// usable code, the literal texts of the upstream's entries for it (what the table's rate
    /// must be one of).
    public static func run(_ body: [UInt8], provider: String,
                           decode: (JSONValue) throws(UpstreamError) -> RateTable,
                           entries: (JSONValue) -> [String: [String]]) {
        let json: JSONValue
        do {
            json = try JSONParser.parse(body)
        } catch {
            check(error.offset >= 0 && error.offset <= body.count, "JSON error offset \(error.offset) outside the body")
            check(!error.reason.isEmpty, "JSON error without a reason")
            return
        }
        let table: RateTable
        do {
            table = try decode(json)
        } catch {
            check(error.kind == .malformed, "\(provider): error kind \(error.kind), expected malformed")
            check(error.provider == provider, "\(provider): error names provider \(error.provider)")
            check(!error.detail.isEmpty, "\(provider): error without detail")
            return
        }
        checkTable(table, provider: provider, entries: entries(json))
        checkRendering(table)
    }

    static func isCode(_ code: String) -> Bool {
        code.utf8.count == 3 && code.utf8.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    }

    static func checkTable(_ table: RateTable, provider: String, entries: [String: [String]]) {
        check(table.source == provider, "source \(table.source), expected \(provider)")
        check(table.rates["BTC"] == 1, "BTC rate is \(String(describing: table.rates["BTC"]))")
        check(table.rates.count >= 2, "a table with no rate besides BTC")
        check(table.codes == table.rates.keys.sorted(), "codes are not the sorted rate keys")
        check(writableUpdated.contains(table.updated), "updated \(table.updated) is not a writable date-time")
        for (code, rate) in table.rates {
            check(isCode(code), "code \(code.debugDescription) is not three upper-case letters")
            check(!rate.isNaN && usableRates.contains(rate), "rate of \(code) is \(rate), outside 1e-30…1e30")
            guard code != "BTC" else { continue }
            let texts = entries[code] ?? []
            check(texts.contains { DecimalText.parse($0) == rate }, "rate of \(code) (\(rate)) is none of the upstream's \(texts)")
        }
        for (code, texts) in entries where code != "BTC" && table.rates[code] == nil {
            check(!texts.contains { usableRates.contains(DecimalText.parse($0) ?? 0) }, "usable entry \(code) \(texts) was dropped")
            // Dropped, but not forgotten: asking for it is a 502 naming the field, not a 404.
            check(table.unavailable[code] != nil, "unusable entry \(code) \(texts) is not marked unavailable")
        }
        for (code, error) in table.unavailable {
            check(table.rates[code] == nil, "\(code) is both quoted and unavailable")
            check(error.provider == provider && error.kind == .malformed, "unavailable \(code): \(error)")
            check(error.detail.contains("field ") && error.detail.uppercased().contains(code), "unavailable \(code) does not name its field: \(error.detail)")
        }
        for (code, currency) in table.upstreamCurrencies {
            check(table.rates[code] != nil, "currency \(code) described but not quoted")
            check(currency.code == code, "currency under \(code) has code \(currency.code)")
            check(!currency.name.isEmpty, "currency \(code) has an empty name")
        }
    }

    static func render(_ query: RatesQuery, _ table: RateTable) -> JSONValue {
        let bytes: [UInt8]
        do {
            bytes = try RatesRenderer.render(query, table: table)
        } catch {
            fatalError("invariant broken: rendering \(query) of a table quoting \(table.codes) failed: \(error)")
        }
        do {
            return try JSONParser.parse(bytes)
        } catch {
            fatalError("invariant broken: \(query) rendered invalid JSON (\(error)): \(String(decoding: bytes, as: UTF8.self))")
        }
    }

    static func checkRendering(_ table: RateTable) {
        let other = table.codes.first { $0 != "BTC" }!
        let rendered = render(.rates(base: "BTC", symbols: nil), table)
        let updatedText = TimestampText.iso8601UTC(table.updated)
        check(updatedText.utf8.count == 20 && TimestampText.parseISO8601(updatedText) == table.updated,
              "updated \(table.updated) writes as \(updatedText), which does not read back")
        for code in table.codes {
            guard case let .number(text)? = rendered["rates"]?[code]?["rate"] else {
                fatalError("invariant broken: rendered rates lack \(code)")
            }
            check(DecimalText.parse(text) == table.rates[code], "rate of \(code) \(table.rates[code]!) rendered as \(text)")
        }
        _ = render(.rates(base: other, symbols: nil), table)
        _ = render(.rate(code: "BTC", base: other), table)
        _ = render(.convert(from: other, to: "BTC", amount: 1), table)
        _ = render(.convert(from: "BTC", to: other, amount: Decimal(string: "0.5")!), table)
        _ = render(.currencies, table)
        _ = render(.bpiCurrentPrice, table)
        _ = render(.bpiCurrentPriceIn(code: other), table)
        _ = render(.bpiSupportedCurrencies, table)
    }

    // MARK: - The upstream entries each provider reads, for the "nothing invented" check.

    /// Adds `text` under the normalized form of `rawCode` when it is three ASCII letters.
    static func add(_ rawCode: String, _ text: String?, to out: inout [String: [String]]) {
        guard let text, rawCode.utf8.count == 3,
              rawCode.utf8.allSatisfy({ ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") }) else { return }
        out[rawCode.uppercased(), default: []].append(text)
    }

    /// Coinbase: `data.rates.{code}` as a decimal string (or a number).
    public static func coinbaseEntries(_ json: JSONValue) -> [String: [String]] {
        var out: [String: [String]] = [:]
        guard case let .object(rates)? = json["data"]?["rates"] else { return out }
        for (code, value) in rates {
            switch value {
            case let .string(s), let .number(s): add(code, s, to: &out)
            default: break
            }
        }
        return out
    }

    /// CoinGecko: `bitcoin.{code}` as a number.
    public static func coinGeckoEntries(_ json: JSONValue) -> [String: [String]] {
        var out: [String: [String]] = [:]
        guard case let .object(members)? = json["bitcoin"] else { return out }
        for (code, value) in members {
            if case let .number(s) = value { add(code, s, to: &out) }
        }
        return out
    }

    /// CoinDesk: `bpi.{code}.rate_float` (number or string), else `rate` without its commas.
    public static func coinDeskEntries(_ json: JSONValue) -> [String: [String]] {
        var out: [String: [String]] = [:]
        guard case let .object(bpi)? = json["bpi"] else { return out }
        for (code, entry) in bpi {
            switch entry["rate_float"] {
            case let .number(s)?, let .string(s)?: add(code, s, to: &out)
            case nil:
                if case let .string(s)? = entry["rate"] { add(code, s.replacingOccurrences(of: ",", with: ""), to: &out) }
            default: break
            }
        }
        return out
    }
}
