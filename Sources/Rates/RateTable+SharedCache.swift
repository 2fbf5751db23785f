import Base
import Cache
import Foundation
import HTTPClient

/// A rate table travels between replicas (the cache's shared layer) as a `BinaryRecordWriter`
/// record, tag `R`. Rates are written as `Decimal.description`, the same canonical text the
/// validator digests and responses print, and read back with `DecimalText.parse`: exact to
/// all 38 digits, which `JSONEncoder` (through `Double`) is not.
///
/// Layout, version 1: updated (signed varint), source, rates (map code → decimal text, `BTC`
/// = 1 included), upstream currencies (map code → code, name, optional symbol), unavailable
/// (map code → kind, provider, detail, diagnostic, optional URL).
///
/// Reading refuses what no table the service builds can hold, so a damaged or foreign record
/// can never reach the renderers with a value they were not written for: a decimal whose
/// text is not canonical, a rate outside `RateTableBuilder.usableRates` (cross rates of such
/// extremes overflow into NaN), a code that is not three upper-case letters, a table without
/// `BTC` = 1, an unavailable code that also has a rate, an unknown error kind, an `updated`
/// outside the years 0000–9999 `TimestampText` writes. Accepted bytes rebuild exactly the
/// table they came from, validator and cost included.
extension RateTable: SharedCacheValue {
    static let sharedFormat = BinaryRecordFormat(tag: UInt8(ascii: "R"), version: 1)

    public var sharedCacheBytes: [UInt8] {
        var writer = BinaryRecordWriter(format: Self.sharedFormat, capacity: cacheCost)
        writer.write(updated)
        writer.write(source)
        writer.writeMap(rates) { $0.write($1.description) }
        writer.writeMap(upstreamCurrencies) { writer, currency in
            writer.write(currency.code)
            writer.write(currency.name)
            writer.write(optional: currency.symbol)
        }
        writer.writeMap(unavailable) { writer, error in
            writer.write(error.kind.rawValue)
            writer.write(error.provider)
            writer.write(error.detail)
            writer.write(error.diagnostic)
            writer.write(optional: error.url)
        }
        return writer.bytes
    }

    public init?(sharedCacheBytes bytes: [UInt8]) {
        guard let table = BinaryRecordReader.read(bytes, format: Self.sharedFormat, { reader throws(BinaryRecordError) in
            let updated = try reader.readInt64()
            guard TimestampText.writableRange.contains(updated) else { throw reader.invalid("updated") }
            let source = try reader.readString()
            let rates = try reader.readMap { reader throws(BinaryRecordError) in
                let text = try reader.readString()
                guard let rate = DecimalText.parse(text), rate.description == text,
                      RateTableBuilder.usableRates.contains(rate) else { throw reader.invalid("rate") }
                return rate
            }
            guard rates["BTC"] == 1 else { throw reader.invalid("BTC rate") }
            let currencies = try reader.readMap { reader throws(BinaryRecordError) in
                Currency(code: try reader.readString(), name: try reader.readString(), symbol: try reader.readOptionalString())
            }
            let unavailable = try reader.readMap { reader throws(BinaryRecordError) in
                guard let kind = UpstreamError.Kind(rawValue: try reader.readString()) else { throw reader.invalid("error kind") }
                return UpstreamError(kind, provider: try reader.readString(), detail: try reader.readString(),
                                     diagnostic: try reader.readString(), url: try reader.readOptionalString())
            }
            guard unavailable.keys.allSatisfy({ rates[$0] == nil }) else { throw reader.invalid("unavailable code with a rate") }
            for code in Array(rates.keys) + currencies.keys + unavailable.keys where CurrencyCode.normalize(code) != code {
                throw reader.invalid("currency code")
            }
            return RateTable(rates: rates, updated: updated, source: source, upstreamCurrencies: currencies, unavailable: unavailable)
        }) else { return nil }
        self = table
    }
}
