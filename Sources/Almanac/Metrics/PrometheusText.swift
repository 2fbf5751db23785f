import Foundation

/// Renders families in the Prometheus text exposition format 0.0.4: `# HELP` and `# TYPE`
/// once per family, escaped label values, histograms as cumulative `_bucket{le}` series
/// ending in `+Inf`, then `_sum` and `_count`.
public enum PrometheusText {
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    public static func render(_ families: [MetricFamily]) -> String {
        var out = ""
        for family in families {
            out += "# HELP \(family.name) \(escapeHelp(family.help))\n"
            out += "# TYPE \(family.name) \(family.kind.rawValue)\n"
            for sample in family.samples {
                switch sample.value {
                case let .number(v):
                    out += family.name + labels(sample.labels) + " " + format(v) + "\n"
                case let .histogram(h):
                    let cumulative = h.cumulativeCounts
                    for (i, bound) in h.bounds.enumerated() {
                        out += family.name + "_bucket" + labels(sample.labels + [("le", format(bound))])
                            + " \(cumulative[i])\n"
                    }
                    out += family.name + "_bucket" + labels(sample.labels + [("le", "+Inf")]) + " \(h.count)\n"
                    out += family.name + "_sum" + labels(sample.labels) + " " + format(h.sum) + "\n"
                    out += family.name + "_count" + labels(sample.labels) + " \(h.count)\n"
                }
            }
        }
        return out
    }

    /// Integers without a fraction, others in Swift's shortest round-trip form (which Go's
    /// ParseFloat, and so Prometheus, reads back exactly).
    public static func format(_ v: Double) -> String {
        if v.isNaN { return "NaN" }
        if v.isInfinite { return v > 0 ? "+Inf" : "-Inf" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return String(v)
    }

    static func labels(_ pairs: [(String, String)]) -> String {
        guard !pairs.isEmpty else { return "" }
        return "{" + pairs.map { "\($0.0)=\"\(escapeLabel($0.1))\"" }.joined(separator: ",") + "}"
    }

    /// Label values escape backslash, double quote and line feed.
    static func escapeLabel(_ s: String) -> String {
        var out = ""
        for ch in s.unicodeScalars {
            switch ch {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }

    /// Help text escapes backslash and line feed.
    static func escapeHelp(_ s: String) -> String {
        s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }
}
