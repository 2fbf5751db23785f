import Upstream

/// A rates provider the service can be configured with: what it is (`descriptor`: id, default
/// base URL and budget) and how to build one at the configured base URL. Each provider's file
/// declares its own `kind`; `all` is the registry the configuration keys, the steward's budgets
/// and `rates.providers` are derived from.
public struct RatesProviderKind: Sendable, Equatable {
    public let descriptor: ProviderDescriptor
    public let make: @Sendable (_ baseURL: String, _ now: @escaping WallClock) -> any RatesProvider

    public init(_ descriptor: ProviderDescriptor,
                make: @escaping @Sendable (_ baseURL: String, _ now: @escaping WallClock) -> any RatesProvider) {
        self.descriptor = descriptor
        self.make = make
    }

    public static func == (lhs: RatesProviderKind, rhs: RatesProviderKind) -> Bool { lhs.descriptor == rhs.descriptor }

    /// Every rates provider, in documentation order. A new provider joins here (README "How to
    /// add a provider").
    public static let all: [RatesProviderKind] = [CoinbaseProvider.kind, CoinGeckoProvider.kind, CoinDeskProvider.kind]
}
