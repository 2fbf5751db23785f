import Foundation

/// Keeps secrets (API keys in query strings) out of error details, logs and metrics.
public enum URLRedactor {
    public static let placeholder = "REDACTED"

    /// `url` with the value of every query parameter named in `secrets` replaced by `REDACTED`.
    public static func redact(_ url: String, secrets: Set<String>) -> String {
        guard !secrets.isEmpty, let queryStart = url.firstIndex(of: "?") else { return url }
        let fragmentStart = url[queryStart...].firstIndex(of: "#") ?? url.endIndex
        let query = url[url.index(after: queryStart)..<fragmentStart]
        let redacted = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let decoded = String(name).removingPercentEncoding ?? String(name)
            return secrets.contains(decoded) ? "\(name)=\(placeholder)" : String(pair)
        }.joined(separator: "&")
        return String(url[...queryStart]) + redacted + String(url[fragmentStart...])
    }

    /// `text` with every secret value that appears in `url` replaced, raw or percent-decoded:
    /// a last line of defence for messages libcurl writes itself.
    public static func scrub(_ text: String, url: String, secrets: Set<String>) -> String {
        var text = text
        for value in secretValues(in: url, secrets: secrets) where text.contains(value) {
            text = text.replacingOccurrences(of: value, with: placeholder)
        }
        return text
    }

    static func secretValues(in url: String, secrets: Set<String>) -> [String] {
        guard !secrets.isEmpty, let queryStart = url.firstIndex(of: "?") else { return [] }
        let fragmentStart = url[queryStart...].firstIndex(of: "#") ?? url.endIndex
        var values: [String] = []
        for pair in url[url.index(after: queryStart)..<fragmentStart].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[1].isEmpty else { continue }
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            guard secrets.contains(name) else { continue }
            values.append(String(parts[1]))
            if let decoded = String(parts[1]).removingPercentEncoding, decoded != String(parts[1]) { values.append(decoded) }
        }
        // Longest first, so a value containing another is replaced whole.
        return values.sorted { $0.count > $1.count }
    }
}
