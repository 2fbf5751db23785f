import Base
import Cache
import Foundation

/// The rates value travels between replicas (the cache's shared layer) as a
/// `BinaryRecordWriter` record, tag `I`, so the index refreshes once per TTL per cluster, not
/// once per replica.
///
/// Layout, version 1: the served table (bytes: `RateTable`'s own record, read back by its
/// strict reader), then whether an index report follows; the report is updated (signed
/// varint), quorum, maxDeviationPercent (decimal text), crosses, and the currencies (array:
/// code, optional value, optional median, optional fallback, and the sources: provider,
/// optional price, optional time, status, optional detail). Decimals are `Decimal.description`.
///
/// Reading refuses what `IndexRule` and `IndexedRates.compose` never produce: a decimal whose
/// text is not canonical, a value or median outside `RateTableBuilder.usableRates`, a currency
/// other than USD/EUR/GBP or one twice, an unknown status, a time outside the years
/// 0000–9999, a quorum below 1, a negative percentage. Accepted bytes rebuild exactly the
/// value they came from, validator and cost included.
extension IndexedRates: SharedCacheValue {
    static let sharedFormat = BinaryRecordFormat(tag: UInt8(ascii: "I"), version: 1)

    public var sharedCacheBytes: [UInt8] {
        var writer = BinaryRecordWriter(format: Self.sharedFormat, capacity: cacheCost)
        writer.write(bytes: table.sharedCacheBytes)
        writer.write(index != nil)
        guard let index else { return writer.bytes }
        writer.write(index.updated)
        writer.write(index.quorum)
        writer.write(index.maxDeviationPercent.description)
        writer.write(index.crosses)
        writer.writeArray(index.currencies) { writer, currency in
            writer.write(currency.currency)
            writer.write(optional: currency.value?.description)
            writer.write(optional: currency.median?.description)
            writer.write(optional: currency.fallback)
            writer.writeArray(currency.sources) { writer, source in
                writer.write(source.provider)
                writer.write(optional: source.price?.description)
                writer.write(optional: source.time.map { Int($0) })
                writer.write(source.status.rawValue)
                writer.write(optional: source.detail)
            }
        }
        return writer.bytes
    }

    public init?(sharedCacheBytes bytes: [UInt8]) {
        guard let value = BinaryRecordReader.read(bytes, format: Self.sharedFormat, { reader throws(BinaryRecordError) in
            guard let table = RateTable(sharedCacheBytes: try reader.readBytes()) else { throw reader.invalid("table") }
            guard try reader.readBool() else { return IndexedRates(table: table, index: nil) }
            let updated = try reader.readInt64()
            guard TimestampText.writableRange.contains(updated) else { throw reader.invalid("updated") }
            let quorum = try reader.readInt()
            guard quorum >= 1 else { throw reader.invalid("quorum") }
            let percent = try Self.decimal(&reader, "maxDeviationPercent")
            guard percent >= 0 else { throw reader.invalid("maxDeviationPercent") }
            let crosses = try reader.readString()
            var seen: [String] = []
            let currencies = try reader.readArray { reader throws(BinaryRecordError) in
                let code = try reader.readString()
                guard IndexReport.currencies.contains(code), !seen.contains(code) else { throw reader.invalid("currency") }
                seen.append(code)
                let value = try Self.optionalRate(&reader, "value")
                let median = try Self.optionalRate(&reader, "median")
                let fallback = try reader.readOptionalString()
                let sources = try reader.readArray { reader throws(BinaryRecordError) in
                    let provider = try reader.readString()
                    let price = try reader.readOptionalString()
                    let parsedPrice: Decimal?
                    if let price {
                        guard let parsed = DecimalText.parse(price), parsed.description == price else { throw reader.invalid("price") }
                        parsedPrice = parsed
                    } else {
                        parsedPrice = nil
                    }
                    let time = try reader.readOptionalInt().map { Int64($0) }
                    if let time, !TimestampText.writableRange.contains(time) { throw reader.invalid("time") }
                    guard let status = IndexSourceStatus(rawValue: try reader.readString()) else { throw reader.invalid("status") }
                    return IndexSource(provider: provider, price: parsedPrice, time: time, status: status,
                                       detail: try reader.readOptionalString())
                }
                return CurrencyIndex(currency: code, value: value, median: median, sources: sources, fallback: fallback)
            }
            let report = IndexReport(updated: updated, quorum: quorum, maxDeviationPercent: percent,
                                     currencies: currencies, crosses: crosses)
            return IndexedRates(table: table, index: report)
        }) else { return nil }
        self = value
    }

    /// A canonical decimal text field.
    private static func decimal(_ reader: inout BinaryRecordReader, _ what: String) throws(BinaryRecordError) -> Decimal {
        let text = try reader.readString()
        guard let value = DecimalText.parse(text), value.description == text else { throw reader.invalid(what) }
        return value
    }

    /// An optional canonical decimal within `RateTableBuilder.usableRates`.
    private static func optionalRate(_ reader: inout BinaryRecordReader, _ what: String) throws(BinaryRecordError) -> Decimal? {
        guard let text = try reader.readOptionalString() else { return nil }
        guard let value = DecimalText.parse(text), value.description == text,
              RateTableBuilder.usableRates.contains(value) else { throw reader.invalid(what) }
        return value
    }
}
