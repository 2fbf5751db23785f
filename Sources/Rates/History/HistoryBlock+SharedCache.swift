import Base
import Cache
import HTTPClient

/// A history block travels between replicas as a `BinaryRecordWriter` record, tag `H`.
///
/// Layout, version 1: first day, day count, fetch time (signed varints), final flag, then the
/// series (map code → count, then each day's fixed-point value as a signed varint; 0, "no
/// value that day", is one byte). A value takes as many bytes as its size needs instead of a
/// fixed eight: about 7 for a bitcoin close in dollars, 4 for a euro rate, 1 for a missing day.
///
/// Reading refuses what no block the service builds can hold, since the history code indexes
/// rows by day without further checks: a row whose length is not the day count, a negative
/// value, days outside the years 0000–9999 or a fetch time `TimestampText` cannot write.
extension HistoryBlock: SharedCacheValue {
    static let sharedFormat = BinaryRecordFormat(tag: UInt8(ascii: "H"), version: 1)

    public var sharedCacheBytes: [UInt8] {
        var writer = BinaryRecordWriter(format: Self.sharedFormat, capacity: cacheCost / 2)
        writer.write(firstDay)
        writer.write(dayCount)
        writer.write(fetchedAt)
        writer.write(isFinal)
        writer.writeMap(series) { writer, row in writer.writeArray(row) { $0.write($1) } }
        return writer.bytes
    }

    /// A block ends on its key's `through` day (`HistoryBlockPlan.key`: the fetch span's last
    /// day), and holds at least that day: a block of other days under this key is refused. The
    /// key's provider and series are the envelope's to check.
    public func belongs(toSharedCacheKey key: [UInt8]) -> Bool {
        guard dayCount >= 1, let colon = key.lastIndex(of: UInt8(ascii: ":")) else { return false }
        var lastDay: [UInt8] = []
        ASCIIDecimal.append(Int(truncatingIfNeeded: firstDay &+ Int64(dayCount) &- 1), to: &lastDay)
        return key[(colon + 1)...].elementsEqual(lastDay)
    }

    /// Day numbers of the years 0000–9999.
    static let writableDays = TimestampText.writableRange.lowerBound / 86_400...TimestampText.writableRange.upperBound / 86_400

    public init?(sharedCacheBytes bytes: [UInt8]) {
        guard let block = BinaryRecordReader.read(bytes, format: Self.sharedFormat, { reader throws(BinaryRecordError) in
            let firstDay = try reader.readInt64()
            let dayCount = try reader.readInt()
            guard Self.writableDays.contains(firstDay), dayCount >= 0,
                  dayCount <= Self.writableDays.upperBound &- firstDay &+ 1 else { throw reader.invalid("days") }
            let fetchedAt = try reader.readInt64()
            guard TimestampText.writableRange.contains(fetchedAt) else { throw reader.invalid("fetch time") }
            let isFinal = try reader.readBool()
            let series = try reader.readMap { reader throws(BinaryRecordError) in
                let row = try reader.readArray { reader throws(BinaryRecordError) in
                    let value = try reader.readInt64()
                    guard value >= 0 else { throw reader.invalid("value") }
                    return value
                }
                guard row.count == dayCount else { throw reader.invalid("row length") }
                return row
            }
            return HistoryBlock(firstDay: firstDay, dayCount: dayCount, series: series, fetchedAt: fetchedAt, isFinal: isFinal)
        }) else { return nil }
        self = block
    }
}

/// `provider:series:index:through`, e.g. `bitstamp:USD:20:20453` or
/// `frankfurter::56:20453` (frankfurter has no series). Provider and series are
/// percent-encoded outside RFC 3986's unreserved characters, so the parts never contain the
/// `:` between them and the bytes stay printable ASCII whatever the names hold.
extension HistoryBlockKey: SharedCacheKey {
    public var sharedCacheKeyBytes: [UInt8] {
        var bytes = Array(UpstreamURL.percentEncoded(provider).utf8)
        bytes.append(UInt8(ascii: ":"))
        bytes += UpstreamURL.percentEncoded(series).utf8
        bytes.append(UInt8(ascii: ":"))
        ASCIIDecimal.append(Int(truncatingIfNeeded: index), to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        ASCIIDecimal.append(Int(truncatingIfNeeded: through), to: &bytes)
        return bytes
    }
}
