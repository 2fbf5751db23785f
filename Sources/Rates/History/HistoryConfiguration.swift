import Upstream

/// The `rates.history.*` keys and the history providers' endpoints. Every default is written
/// once: the plain values here, each provider's base URL and budget in its own file
/// (`HistoryProviderKind.descriptor`, `FrankfurterProvider.descriptor`).
public struct HistoryConfiguration: Sendable, Equatable {
    /// Every exchange `providers` may name (the registry, `HistoryProviderKind.all`).
    public let kinds: [HistoryProviderKind]
    /// Exchanges in fall-through order (`rates.history.providers`).
    public var providers = ["bitstamp", "coinbase-exchange"]
    /// Lifetime of a block of complete days (`rates.history.ttlSeconds`), 30 days: complete
    /// days never change; the TTL only bounds how long an unused block occupies memory before
    /// the least-recently-used rule would drop it anyway.
    public var ttlSeconds: Double = 2_592_000
    /// The exchanges' and Frankfurter's base URLs and budgets (`rates.<provider>.baseUrl`, …), by id.
    public var endpoints: ProviderEndpoints

    public init(kinds: [HistoryProviderKind] = HistoryProviderKind.all) {
        self.kinds = kinds
        self.endpoints = ProviderEndpoints(kinds.map(\.descriptor) + [FrankfurterProvider.descriptor])
    }

    /// The configured exchanges, in order (unknown names are skipped; the loader rejects them).
    public func makeExchanges() -> [any HistoryExchangeProvider] {
        providers.compactMap { id in
            kinds.first { $0.descriptor.id == id }.map { $0.make(endpoints[id].baseURL, ()) }
        }
    }

    /// Frankfurter (ECB reference rates) at its configured base URL: always asked, for the
    /// currencies the exchanges do not trade.
    public func makeReference() -> FrankfurterProvider {
        FrankfurterProvider(baseURL: endpoints[FrankfurterProvider.descriptor.id].baseURL)
    }
}

/// An exchange the history service can be configured with, built at a base URL.
public typealias HistoryProviderKind = ProviderKind<any HistoryExchangeProvider, Void>

extension ProviderKind where Provider == any HistoryExchangeProvider, Context == Void {
    /// Every history exchange, in documentation order. A new exchange joins here (docs/development.md "How
    /// to add a provider").
    public static var all: [HistoryProviderKind] { [BitstampHistoryProvider.kind, CoinbaseExchangeHistoryProvider.kind] }
}
