import Testing
import Rates
import Upstream
@testable import Almanac

/// `rates.index.*` as an operator sets them: the list may be emptied (the index off), the
/// exchanges' budgets reach the steward, and the history exchanges keep one endpoint each.
@Suite struct IndexConfigurationTests {
    func load(_ env: [String: String]) -> Result<AlmanacConfiguration, ConfigurationErrors> {
        ConfigurationLoader.load(flags: .init(), environment: env)
    }

    @Test func emptyEnvironmentVariableTurnsTheIndexOff() throws {
        #expect(try load([:]).get().rates.index.providers == ["coinbase-exchange", "bitstamp", "kraken", "gemini", "bitfinex"])
        #expect(try load(["ALMANAC_RATES_INDEX_PROVIDERS": ""]).get().rates.index.providers == [])
        #expect(try load(["ALMANAC_RATES_INDEX_PROVIDERS": "kraken, gemini,bitfinex"]).get().rates.index.providers
                == ["kraken", "gemini", "bitfinex"])
        for bad in ["kraken,kraken", "coinbase"] {
            guard case let .failure(errors) = load(["ALMANAC_RATES_INDEX_PROVIDERS": bad]) else {
                Issue.record("\(bad) accepted")
                continue
            }
            #expect(errors.problems.first?.hasPrefix("rates.index.providers:") == true)
        }
        #expect(try load(["ALMANAC_RATES_INDEX_MIN_SOURCES": "2", "ALMANAC_RATES_INDEX_MAX_DEVIATION_PERCENT": "0.5",
                          "ALMANAC_RATES_INDEX_MAX_AGE_SECONDS": "30"]).get().rates.index.rule
                == .init(minSources: 2, maxDeviationPercent: DecimalText.parse("0.5") ?? 0, maxAgeSeconds: 30))
    }

    @Test func everyConstituentIsBudgetedOnce() throws {
        let config = try load(["ALMANAC_RATES_KRAKEN_MAX_REQUESTS_PER_SECOND": "0.5",
                               "ALMANAC_RATES_BITSTAMP_MAX_REQUESTS_PER_SECOND": "7"]).get()
        let budgets = config.stewardConfiguration.budgets
        #expect(budgets["kraken"]?.maxRequestsPerSecond == 0.5)
        #expect(budgets["gemini"]?.maxRequestsPerSecond == 2)
        #expect(budgets["bitfinex"]?.maxRequestsPerSecond == 1.5)
        // bitstamp is a history exchange too: the one key budgets both uses.
        #expect(budgets["bitstamp"]?.maxRequestsPerSecond == 7)
        #expect(budgets["coinbase-exchange"]?.maxRequestsPerSecond == 10)
        let off = try load(["ALMANAC_RATES_INDEX_PROVIDERS": ""]).get().stewardConfiguration.budgets
        #expect(off["kraken"] == nil && off["bitstamp"] != nil)
    }
}
