import Base
import Foundation

/// Renders historical closes: CoinDesk's `historical/close.json` shape and almanac's own
/// `/v1/rates/history`, straight into bytes (a ten-year range is 3,652 entries: no `String`
/// building or `Decimal` formatting per day on the BTC path), and the one-day `RateTable` that
/// `date=` on `/v1/rates` and `/v1/convert` renders with the ordinary rates renderer.
public enum HistoryRenderer {
    /// CoinDesk's historical disclaimer, honest about where the numbers come from.
    public static func disclaimer(source: String, code: String) -> String {
        "This data was produced by almanac from \(source) daily closes; it is not the CoinDesk Bitcoin Price Index, "
            + "which was retired in 2025. BPI value data returned as \(code)."
    }

    /// `{"bpi":{"2024-01-01":42280.2345,…},"disclaimer":"…","time":{"updated":"…","updatedISO":"…"}}`:
    /// keys in CoinDesk's order, dates ascending, at most four decimals, days without a close left out.
    /// `label` is the code as the client spelled it (`XBT`) for the disclaimer.
    public static func coinDeskClose(_ closes: HistoryCloses, code: String, label: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256 + closes.days.count * 26)
        out.append(contentsOf: #"{"bpi":{"#.utf8)
        var first = true
        if let row = closes.values[code] {
            var day = closes.days.lowerBound
            for value in row {
                if value > 0 {
                    if !first { out.append(UInt8(ascii: ",")) }
                    first = false
                    out.append(UInt8(ascii: "\""))
                    HistoryDay.append(day, to: &out)
                    out.append(contentsOf: #"":"#.utf8)
                    HistoryFixed.append(value, decimals: 4, to: &out)
                }
                day += 1
            }
        }
        var w = JSONWriter(capacity: 320)
        w.raw("},")
        w.string("disclaimer"); w.raw(":"); w.string(disclaimer(source: closes.source, code: label))
        w.key("time"); w.raw("{")
        w.key("updated", first: true); w.string(TimestampText.coinDeskUpdated(closes.updated))
        w.key("updatedISO"); w.string(TimestampText.coinDeskISO(closes.updated))
        w.raw("}}")
        out.append(contentsOf: w.text.utf8)
        return out
    }

    /// `{"base","start","end","source","rates":{"2024-01-01":{"EUR":…,"USD":…},…}}`. With base BTC
    /// each rate is the close itself; otherwise the quotient of the two closes, rounded to
    /// `DecimalText.derivedSignificantDigits` significant digits as every cross rate is. Days
    /// where the base has no close, and symbols without a close that day, are left out.
    public static func ratesHistory(_ closes: HistoryCloses, base: String, symbols: [String],
                                    start: Int64, end: Int64) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128 + closes.days.count * (16 + symbols.count * 20))
        var head = JSONWriter(capacity: 128)
        head.raw("{")
        head.key("base", first: true); head.string(base)
        head.key("start"); head.string(HistoryDay.text(start))
        head.key("end"); head.string(HistoryDay.text(end))
        head.key("source"); head.string(closes.source)
        head.key("rates"); head.raw("{")
        out.append(contentsOf: head.text.utf8)
        let baseRow = base == "BTC" ? nil : closes.values[base]
        var firstDay = true
        for i in 0..<closes.days.count {
            let day = closes.days.lowerBound + Int64(i)
            let baseValue = baseRow.map { $0[i] } ?? HistoryFixed.one
            guard baseValue > 0 else { continue }
            var firstSymbol = true
            for code in symbols {
                guard let row = closes.values[code] else { continue }
                let value = code == base ? baseValue : row[i]
                guard value > 0 else { continue }
                if firstSymbol {
                    if !firstDay { out.append(UInt8(ascii: ",")) }
                    firstDay = false
                    out.append(UInt8(ascii: "\""))
                    HistoryDay.append(day, to: &out)
                    out.append(contentsOf: #"":{"#.utf8)
                } else {
                    out.append(UInt8(ascii: ","))
                }
                firstSymbol = false
                out.append(UInt8(ascii: "\""))
                out.append(contentsOf: code.utf8)
                out.append(contentsOf: #"":"#.utf8)
                if base == "BTC" {
                    HistoryFixed.append(value, decimals: 8, to: &out)
                } else if code == base {
                    out.append(UInt8(ascii: "1"))
                } else {
                    let quotient = HistoryFixed.decimal(value) / HistoryFixed.decimal(baseValue)
                    out.append(contentsOf: DecimalText.json(DecimalText.rounded(quotient, significantDigits: DecimalText.derivedSignificantDigits)).utf8)
                }
            }
            if !firstSymbol { out.append(UInt8(ascii: "}")) }
        }
        out.append(contentsOf: "}}".utf8)
        return out
    }

    /// The rate table of one day's closes (BTC base), for `date=`: `updated` is the close's
    /// instant, the end of that day (the next day's 00:00 UTC). Nil when the day has no close.
    public static func dayTable(_ closes: HistoryCloses, day: Int64) -> RateTable? {
        var rates: [String: Decimal] = [:]
        for (code, _) in closes.values where code != "BTC" {
            if let value = closes.value(code, day: day) { rates[code] = HistoryFixed.decimal(value) }
        }
        guard !rates.isEmpty else { return nil }
        return RateTable(rates: rates, updated: HistoryDay.startSeconds(day + 1), source: closes.source)
    }
}
