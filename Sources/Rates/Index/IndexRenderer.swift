import Base
import Foundation

/// `GET /v1/index`: `{"updated","quorum","maxDeviationPercent","currencies":{"USD":{"value",
/// "median","sources":[{"provider","price","time","status","detail"}],"fallback"},…},"crosses"}`.
/// Prices and values are exact JSON numbers; a source has `price`/`time` only when its ticker
/// gave them and `detail` only when it was not used; `fallback` only on a degraded currency
/// (whose `value` is null).
public enum IndexRenderer {
    public static func render(_ report: IndexReport) -> [UInt8] {
        var w = JSONWriter(capacity: 400 + report.currencies.count * 600)
        w.raw("{")
        w.key("updated", first: true); w.string(TimestampText.iso8601UTC(report.updated))
        w.key("quorum"); w.raw(String(report.quorum))
        w.key("maxDeviationPercent"); w.number(report.maxDeviationPercent)
        w.key("currencies"); w.raw("{")
        for (n, currency) in report.currencies.enumerated() {
            w.key(currency.currency, first: n == 0)
            w.raw("{")
            w.key("value", first: true); optionalNumber(&w, currency.value)
            w.key("median"); optionalNumber(&w, currency.median)
            w.key("sources"); w.raw("[")
            for (m, source) in currency.sources.enumerated() {
                if m > 0 { w.raw(",") }
                w.raw("{")
                w.key("provider", first: true); w.string(source.provider)
                if let price = source.price { w.key("price"); w.number(price) }
                if let time = source.time { w.key("time"); w.string(TimestampText.iso8601UTC(time)) }
                w.key("status"); w.string(source.status.rawValue)
                if let detail = source.detail { w.key("detail"); w.string(detail) }
                w.raw("}")
            }
            w.raw("]")
            if let fallback = currency.fallback { w.key("fallback"); w.string(fallback) }
            w.raw("}")
        }
        w.raw("}")
        w.key("crosses"); w.string(report.crosses)
        w.raw("}")
        return w.bytes
    }

    private static func optionalNumber(_ w: inout JSONWriter, _ value: Decimal?) {
        if let value { w.number(value) } else { w.raw("null") }
    }
}
