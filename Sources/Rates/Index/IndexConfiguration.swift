import Foundation
import Upstream

/// The `rates.index.*` keys and the endpoints of the constituents that only the index asks
/// (`rates.kraken.*`, `rates.gemini.*`, `rates.bitfinex.*`). coinbase-exchange and bitstamp
/// are the history exchanges too: one provider each, one base URL and one budget, so their
/// endpoints stay with the history configuration (`rates.coinbaseExchange.*`, `rates.bitstamp.*`).
public struct IndexConfiguration: Sendable, Equatable {
    /// Every exchange `providers` may name (the registry, `IndexConstituentKind.all`).
    public let kinds: [IndexConstituentKind]
    /// The constituents (`rates.index.providers`); empty turns the index off.
    public var providers: [String]
    /// Prices left after the deviation filter needed for an index (`rates.index.minSources`).
    public var minSources = 3
    /// Largest distance from the median a used price may have, in percent (`rates.index.maxDeviationPercent`).
    public var maxDeviationPercent: Double = 2
    /// Oldest ticker time still used (`rates.index.maxAgeSeconds`).
    public var maxAgeSeconds: Double = 120
    /// Base URLs and budgets of the constituents no other area configures, by id.
    public var endpoints: ProviderEndpoints

    public init(kinds: [IndexConstituentKind] = IndexConstituentKind.all, sharedWith history: [HistoryProviderKind] = HistoryProviderKind.all) {
        self.kinds = kinds
        self.providers = kinds.map(\.descriptor.id)
        let historyIDs = Set(history.map(\.descriptor.id))
        self.endpoints = ProviderEndpoints(kinds.map(\.descriptor).filter { !historyIDs.contains($0.id) })
    }

    /// The rule with these settings. The percentage goes through its shortest decimal text
    /// (`2.5` → 2.5 exactly), not through binary arithmetic.
    public var rule: IndexRule {
        IndexRule(minSources: minSources,
                  maxDeviationPercent: DecimalText.parse(String(maxDeviationPercent)) ?? 2,
                  maxAgeSeconds: Int64(maxAgeSeconds.rounded(.down)))
    }

    /// The endpoint of constituent `id`: its own, or the history exchange's in `shared`.
    public func endpoint(_ id: String, shared: ProviderEndpoints) -> ProviderEndpoint {
        endpoints.descriptors.contains { $0.id == id } ? endpoints[id] : shared[id]
    }

    /// The configured constituents, in order (unknown names are skipped; the loader rejects them).
    public func makeConstituents(shared: ProviderEndpoints) -> [any IndexConstituent] {
        providers.compactMap { id in
            kinds.first { $0.descriptor.id == id }.map { $0.make(endpoint(id, shared: shared).baseURL, ()) }
        }
    }
}
