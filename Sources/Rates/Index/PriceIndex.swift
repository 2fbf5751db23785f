import HTTPClient
import Upstream

/// Asks every constituent for USD, EUR and GBP at once and applies `IndexRule`. Each request
/// goes through its own one-provider `ProviderChain`, so the steward admits it like any other
/// (budgets, cluster-wide cooldowns and breakers, the request deadline) and reports failures;
/// a constituent that fails is a line in the report, never an error of the whole index.
public struct PriceIndex: Sendable {
    public let constituents: [any IndexConstituent]
    public let rule: IndexRule
    let client: any HTTPClient
    let steward: Steward?
    let now: WallClock

    public init(constituents: [any IndexConstituent], rule: IndexRule, client: any HTTPClient,
                steward: Steward? = nil, now: @escaping WallClock = WallClocks.system) {
        self.constituents = constituents
        self.rule = rule
        self.client = client
        self.steward = steward
        self.now = now
    }

    /// The report of this refresh; `crosses` is filled in by `IndexedRates.compose`.
    /// - Parameter background: a cache refresh while a stale value is served (never spends a
    ///   provider's last budget token).
    public func report(background: Bool = false) async -> IndexReport {
        let currencies = IndexReport.currencies
        let asked = constituents.count
        let observations = await withTaskGroup(of: (Int, Int, IndexObservation).self) { group in
            for (c, currency) in currencies.enumerated() {
                for (p, constituent) in constituents.enumerated() {
                    let chain = ProviderChain<IndexQuote>([ProviderChain.Provider(name: constituent.name) { client in
                        try await constituent.quote(currency, client: client)
                    }], client: client, steward: steward)
                    group.addTask { (c, p, await Self.observe(chain, background: background)) }
                }
            }
            var table = Array(repeating: Array(repeating: IndexObservation.failed("not asked"), count: asked), count: currencies.count)
            for await (c, p, observation) in group { table[c][p] = observation }
            return table
        }
        let time = now()
        let names = constituents.map(\.name)
        let indexes = currencies.enumerated().map { c, currency in
            rule.evaluate(currency, Array(zip(names, observations[c])).map { (provider: $0.0, observation: $0.1) }, now: time)
        }
        return IndexReport(updated: time, quorum: rule.minSources, maxDeviationPercent: rule.maxDeviationPercent,
                           currencies: indexes, crosses: "")
    }

    /// One ticker as an observation: its quote, the steward's skip, or the failure's public text.
    static func observe(_ chain: ProviderChain<IndexQuote>, background: Bool) async -> IndexObservation {
        do {
            return .quote(try await chain.firstAnswer(background: background))
        } catch let unavailable as ProvidersUnavailable {
            if let skip = unavailable.skipped.first { return .skipped(skip.description) }
            return .failed(unavailable.failures.first?.publicDescription ?? "no answer")
        } catch {
            return .failed("cancelled")
        }
    }
}
