import Base
import Foundation

/// One distinct rates answer: endpoint plus normalized parameters. Two requests with the same
/// `RatesQuery` get byte-identical bodies from the same table, which is what lets rendering be
/// memoized (`RenderMemo`) and ETags be shared.
public enum RatesQuery: Sendable, Hashable {
    /// `/v1/rates?base=&symbols=`; `symbols` sorted and de-duplicated, nil = all.
    case rates(base: String, symbols: [String]?)
    /// `/v1/rates/{code}?base=`
    case rate(code: String, base: String)
    /// `/v1/convert?from=&to=&amount=`
    case convert(from: String, to: String, amount: Decimal)
    /// `/v1/currencies`
    case currencies
    /// `/v1/bpi/currentprice.json`
    case bpiCurrentPrice
    /// `/v1/bpi/currentprice/{code}.json`
    case bpiCurrentPriceIn(code: String)
    /// `/v1/bpi/supported-currencies.json`
    case bpiSupportedCurrencies

    /// A canonical text of the query (its part of the ETag).
    public var representationKey: String {
        switch self {
        case let .rates(base, symbols): return "rates?base=\(base)&symbols=\(symbols?.joined(separator: ",") ?? "*")"
        case let .rate(code, base): return "rate/\(code)?base=\(base)"
        case let .convert(from, to, amount): return "convert?from=\(from)&to=\(to)&amount=\(amount)"
        case .currencies: return "currencies"
        case .bpiCurrentPrice: return "bpi/currentprice"
        case let .bpiCurrentPriceIn(code): return "bpi/currentprice/\(code)"
        case .bpiSupportedCurrencies: return "bpi/supported-currencies"
        }
    }
}

/// Turns raw request values into `RatesQuery` parts, rejecting malformed input (400) before
/// any upstream is touched. Whether a well-formed code exists is decided later, against the
/// table (404).
public enum RatesInput {
    /// At most this many codes in `symbols=` (more than any table quotes).
    public static let maxSymbols = 300
    /// Longest accepted `amount` text.
    public static let maxAmountLength = 32

    /// A required or defaulted code: `value` nil → `defaultCode`; otherwise three letters, any case.
    public static func code(_ value: String?, parameter: String, default defaultCode: String? = nil) throws(RatesInputError) -> String {
        guard let value else {
            if let defaultCode { return defaultCode }
            throw RatesInputError(kind: .malformed, slug: "missing-parameter",
                                  detail: "The query parameter \(parameter) is required, e.g. \(parameter)=USD.")
        }
        guard let code = CurrencyCode.normalize(value) else { throw RatesInputError.malformedCode(parameter, value) }
        return code
    }

    /// `symbols=USD,gbp, eur` → `["EUR", "GBP", "USD"]`; empty items are ignored; an absent or
    /// empty list means "all".
    public static func symbols(_ value: String?) throws(RatesInputError) -> [String]? {
        guard let value else { return nil }
        var codes = Set<String>()
        // Split and trimmed as bytes: `,` or a space followed by a combining mark is one
        // `Character`, which a `Character` split would neither split at nor trim.
        for item in value.utf8.split(separator: UInt8(ascii: ",")) {
            let trimmed = item.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
            if trimmed.isEmpty { continue }
            let text = String(decoding: trimmed, as: UTF8.self)
            guard let code = CurrencyCode.normalize(text) else { throw RatesInputError.malformedCode("symbols item", text) }
            codes.insert(code)
            if codes.count > maxSymbols {
                throw RatesInputError(kind: .malformed, slug: "invalid-symbols", detail: "symbols lists more than \(maxSymbols) codes.")
            }
        }
        return codes.isEmpty ? nil : codes.sorted()
    }

    /// `amount`: absent → 1; else a plain non-negative decimal (`12`, `0.5`, `1000000.25`), at
    /// most `maxAmountLength` characters. No signs, exponents, separators, `NaN` or `Infinity`.
    public static func amount(_ value: String?) throws(RatesInputError) -> Decimal {
        guard let value else { return 1 }
        let bytes = Array(value.utf8)
        func fail(_ why: String) -> RatesInputError {
            RatesInputError(kind: .malformed, slug: "invalid-amount",
                            detail: "amount \"\(EchoedText.clipped(value))\" \(why).")
        }
        guard !bytes.isEmpty else { throw fail("is empty: use a number such as 100 or 12.50") }
        guard bytes.count <= maxAmountLength else { throw fail("is longer than \(maxAmountLength) characters") }
        if bytes.first == UInt8(ascii: "-") { throw fail("is negative: use zero or a positive number") }
        var dots = 0
        for b in bytes {
            if b == UInt8(ascii: ".") { dots += 1; continue }
            guard b >= 0x30, b <= 0x39 else { throw fail("is not a plain decimal number such as 100 or 12.50") }
        }
        guard dots <= 1, bytes.first != UInt8(ascii: "."), bytes.last != UInt8(ascii: "."),
              let amount = DecimalText.parse(value) else {
            throw fail("is not a plain decimal number such as 100 or 12.50")
        }
        return amount
    }
}
