import Upstream

/// A rates provider the service can be configured with, built at a base URL with the wall clock.
public typealias RatesProviderKind = ProviderKind<any RatesProvider, WallClock>

extension ProviderKind where Provider == any RatesProvider, Context == WallClock {
    /// Every rates provider, in documentation order. A new provider joins here (docs/development.md "How to
    /// add a provider").
    public static var all: [RatesProviderKind] { [CoinbaseProvider.kind, CoinGeckoProvider.kind, CoinDeskProvider.kind] }
}
