import HTTPClient

/// Tries providers in configured order; the first table wins.
///
/// When all fail, the error summarizes every attempt so an operator sees the whole story in
/// one problem detail: its kind is `.timeout` only when every provider timed out (→ 504),
/// otherwise a gateway failure (→ 502) — a provider that answered garbage is more telling
/// than one that was slow.
public enum RatesFailover {
    public static func fetch(from providers: [any RatesProvider], client: any HTTPClient) async throws(UpstreamError) -> RateTable {
        var failures: [UpstreamError] = []
        for provider in providers {
            do {
                return try await provider.fetch(client: client)
            } catch let error as UpstreamError {
                if error.kind == .cancelled { throw error }
                failures.append(error)
            } catch {
                failures.append(UpstreamError(.other, provider: provider.name, detail: "\(error)"))
            }
        }
        throw combine(failures)
    }

    /// One error standing for all `failures` (provider `rates`).
    public static func combine(_ failures: [UpstreamError]) -> UpstreamError {
        guard !failures.isEmpty else {
            return UpstreamError(.other, provider: "rates", detail: "no rates provider is configured")
        }
        let kind: UpstreamError.Kind
        if failures.allSatisfy(\.isTimeout) {
            kind = .timeout
        } else if failures.count == 1 {
            kind = failures[0].kind
        } else {
            kind = .other
        }
        let each = failures.map(describe).joined(separator: "; ")
        let lead = failures.count == 1 ? "the rates provider failed" : "all \(failures.count) rates providers failed"
        return UpstreamError(kind, provider: "rates", detail: "\(lead): \(each)")
    }

    /// `coinbase: upstream answered HTTP 503`, `coingecko: timeout: …`; decoding failures read
    /// as `coinbase: missing field data.rates`.
    static func describe(_ e: UpstreamError) -> String {
        switch e.kind {
        case .malformed, .other: return "\(e.provider): \(e.detail)"
        default: return "\(e.provider): \(e.kind.rawValue): \(e.detail)"
        }
    }
}
