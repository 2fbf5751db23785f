/// What the service needs to know about a provider besides how to talk to it: its id and
/// the defaults of its location and request budget. Each provider file declares its own
/// (`CoinbaseProvider.kind.descriptor`); the configuration keys
/// (`<area>.<configName>.baseUrl`, `.maxRequestsPerSecond`, `.burst`), the steward's budgets
/// and the metrics' `provider` label are all derived from it, so the defaults live in exactly
/// one place and a new provider needs no edit anywhere else but one list.
public struct ProviderDescriptor: Sendable, Equatable {
    /// `coinbase-exchange`: the name in provider lists (`rates.history.providers`), metrics
    /// labels, logs, problem details and `source` fields.
    public let id: String
    /// Where the provider's public API lives (`rates.<configName>.baseUrl` by default).
    public let defaultBaseURL: String
    /// The budget its published guidance allows (docs/upstream.md); `.unlimited` when none.
    public let defaultBudget: ProviderBudget

    public init(id: String, defaultBaseURL: String, defaultBudget: ProviderBudget = .unlimited) {
        self.id = id
        self.defaultBaseURL = defaultBaseURL
        self.defaultBudget = defaultBudget
    }

    /// The configuration section: the id in lower camel case (`coinbase-exchange` →
    /// `coinbaseExchange`, `google-books` → `googleBooks`).
    public var configName: String {
        id.split(separator: "-").enumerated()
            .map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }
            .joined()
    }

    public var defaultEndpoint: ProviderEndpoint {
        ProviderEndpoint(baseURL: defaultBaseURL, budget: defaultBudget)
    }
}

/// One provider's configured location and request budget.
public struct ProviderEndpoint: Sendable, Equatable {
    public var baseURL: String
    public var budget: ProviderBudget

    public init(baseURL: String, budget: ProviderBudget = .unlimited) {
        self.baseURL = baseURL
        self.budget = budget
    }
}

/// The endpoints of a set of providers by id, each starting at its descriptor's defaults.
public struct ProviderEndpoints: Sendable, Equatable {
    public let descriptors: [ProviderDescriptor]
    private var byID: [String: ProviderEndpoint]

    public init(_ descriptors: [ProviderDescriptor]) {
        self.descriptors = descriptors
        self.byID = Dictionary(descriptors.map { ($0.id, $0.defaultEndpoint) }, uniquingKeysWith: { first, _ in first })
    }

    /// The endpoint of provider `id`. An id no descriptor names reads as an empty base URL
    /// without a budget (the configuration only ever asks for ids it lists).
    public subscript(id: String) -> ProviderEndpoint {
        get { byID[id] ?? ProviderEndpoint(baseURL: "") }
        set { byID[id] = newValue }
    }

    /// Every provider's budget by id, for `StewardConfiguration.budgets`.
    public var budgets: [String: ProviderBudget] {
        byID.mapValues(\.budget)
    }
}

/// A provider the service can be configured with: what it is (`descriptor`) and how to build
/// one at the configured base URL, given what its domain passes every provider (`Context`: the
/// wall clock for rates, the books configuration for books' own settings). Each provider's
/// file declares its own; a domain's list of them is its registry (`RatesProviderKind.all`,
/// …), from which the configuration keys, provider lists and budgets are derived.
public struct ProviderKind<Provider, Context>: Sendable, Equatable {
    public let descriptor: ProviderDescriptor
    public let make: @Sendable (_ baseURL: String, _ context: Context) -> Provider

    public init(_ descriptor: ProviderDescriptor, make: @escaping @Sendable (_ baseURL: String, _ context: Context) -> Provider) {
        self.descriptor = descriptor
        self.make = make
    }

    public static func == (lhs: ProviderKind, rhs: ProviderKind) -> Bool { lhs.descriptor == rhs.descriptor }
}

/// A provider type that declares its descriptor: its `name` (metrics label, `source`, log and
/// problem text) is the descriptor's id.
public protocol DescribedProvider {
    static var descriptor: ProviderDescriptor { get }
}

extension DescribedProvider {
    public var name: String { Self.descriptor.id }
}
