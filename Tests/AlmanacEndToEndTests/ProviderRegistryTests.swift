import Books
import Foundation
import HTTPClient
import Rates
import Testing
import TestSupport
import Upstream
@testable import Almanac

/// docs/development.md "How to add a provider", walked with a made-up provider: its file's worth
/// (`ExampleRatesProvider`, with its `kind`) plus one line in a list (here: the list handed to the configuration),
/// and its configuration keys, its place in `rates.providers`, its steward budget and its
/// `check-config` section all follow, with nothing else edited.
@Suite struct ProviderRegistryTests {
    private static let environment = [
        "ALMANAC_RATES_PROVIDERS": "example-rates,coinbase",
        "ALMANAC_RATES_EXAMPLE_RATES_BASE_URL": "http://127.0.0.1:9/mirror/",
        "ALMANAC_RATES_EXAMPLE_RATES_BURST": "5",
    ]

    @Test func aRegisteredProviderGetsItsKeysListBudgetAndSection() throws {
        // The "one line": the registry with the new kind in it.
        let defaults = AlmanacConfiguration(rates: RatesProviderKind.all + [ExampleRatesProvider.kind])
        let config = try ConfigurationLoader.load(flags: ConfigurationFlags(), environment: Self.environment,
                                                  fileReader: { _ in nil }, defaults: defaults).get()
        let providers = config.rates.makeProviders()
        #expect(providers.map(\.name) == ["example-rates", "coinbase"])
        #expect((providers.first as? ExampleRatesProvider)?.url == "http://127.0.0.1:9/mirror/btc")
        // Its default rate, the configured burst; budgets only for the providers listed.
        #expect(config.stewardConfiguration.budgets["example-rates"] == ProviderBudget(maxRequestsPerSecond: 4, burst: 5))
        #expect(config.stewardConfiguration.budgets["coingecko"] == nil)
        #expect(config.redactedJSON.contains(#""exampleRates" : {"#))
        #expect(config.redactedJSON.contains(#""baseUrl" : "http://127.0.0.1:9/mirror/""#))

        // A file can set it too, by the same derived key.
        let file = #"{"rates": {"providers": ["example-rates"], "exampleRates": {"maxRequestsPerSecond": 0.5}}}"#
        let fromFile = try ConfigurationLoader.load(flags: ConfigurationFlags(configPath: "x.json"), environment: [:],
                                                    fileReader: { _ in Data(file.utf8) }, defaults: defaults).get()
        #expect(fromFile.rates.endpoints["example-rates"].budget == ProviderBudget(maxRequestsPerSecond: 0.5))
    }

    @Test func anUnregisteredProviderIsRefusedByName() {
        guard case let .failure(errors) = ConfigurationLoader.load(flags: ConfigurationFlags(), environment: Self.environment,
                                                                   fileReader: { _ in nil }) else {
            Issue.record("an unregistered provider's settings were accepted")
            return
        }
        #expect(errors.problems.contains { $0.hasPrefix("ALMANAC_RATES_EXAMPLE_RATES_BASE_URL: unknown environment variable") })
        #expect(errors.problems.contains { $0.hasPrefix("rates.providers: expected a non-empty list of distinct providers from coinbase, coingecko, coindesk") })
    }

    /// Every registered provider's section is `<area>.<id in lower camel case>`.
    @Test func configNamesAreTheIdsInLowerCamelCase() {
        let names = (RatesProviderKind.all.map(\.descriptor) + HistoryProviderKind.all.map(\.descriptor)
            + [FrankfurterProvider.descriptor] + BooksProviderKind.all.map(\.descriptor)).map(\.configName)
        #expect(names == ["coinbase", "coingecko", "coindesk", "bitstamp", "coinbaseExchange", "frankfurter",
                          "googleBooks", "openLibrary"])
    }
}
