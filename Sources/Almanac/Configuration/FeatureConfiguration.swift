import Books
import Rates
import Upstream

/// Maps the validated `rates.*` / `books.*` keys onto the feature modules' own configuration
/// types, so Rates and Books stay free of Almanac's config loader.
extension AlmanacConfiguration {
    public var ratesConfiguration: RatesConfiguration {
        RatesConfiguration(
            providers: rates.providers,
            ttlSeconds: rates.ttlSeconds,
            staleSeconds: rates.staleSeconds,
            coinbase: .init(baseURL: rates.coinbase.baseUrl),
            coingecko: .init(baseURL: rates.coingecko.baseUrl),
            coindesk: .init(baseURL: rates.coindesk.baseUrl))
    }

    public var historyConfiguration: HistoryConfiguration {
        HistoryConfiguration(
            providers: rates.history.providers,
            ttlSeconds: rates.history.ttlSeconds,
            bitstampBaseURL: rates.bitstamp.baseUrl,
            coinbaseExchangeBaseURL: rates.coinbaseExchange.baseUrl,
            frankfurterBaseURL: rates.frankfurter.baseUrl)
    }

    public var booksConfiguration: BooksConfiguration {
        var c = BooksConfiguration()
        // The loader already rejected unknown names, so every name maps.
        c.providers = books.providers.compactMap(BooksProviderID.init(rawValue:))
        c.ttlSeconds = books.ttlSeconds
        c.notFoundTtlSeconds = books.notFoundTtlSeconds
        c.staleSeconds = books.staleSeconds
        c.googleBooks.baseUrl = books.googleBooks.baseUrl
        c.googleBooks.apiKey = books.googleBooks.apiKey
        c.googleBooks.country = books.googleBooks.country
        c.openLibrary.baseUrl = books.openLibrary.baseUrl
        c.openLibrary.coversBaseUrl = books.openLibrary.coversBaseUrl
        c.maxCoverBytes = books.maxCoverBytes
        return c
    }
}

extension AlmanacConfiguration {
    /// `upstream.*` stewardship keys and each configured provider's budget, by provider name.
    public var stewardConfiguration: StewardConfiguration {
        var c = StewardConfiguration()
        c.limits.maxCooldownSeconds = upstream.maxCooldownSeconds
        c.limits.breakerFailures = upstream.breakerFailures
        c.limits.retryBudgetPercent = upstream.retryBudgetPercent
        c.limits.staleProbeSeconds = Double(upstream.requestDeadlineMs) / 1000
        c.maxQueueMs = upstream.maxQueueMs
        c.providerTimeoutMs = upstream.timeoutMs
        c.requestDeadlineMs = upstream.requestDeadlineMs
        let rateEndpoints = ["coinbase": rates.coinbase, "coingecko": rates.coingecko, "coindesk": rates.coindesk]
        for name in rates.providers {
            guard let endpoint = rateEndpoints[name] else { continue }
            c.budgets[name] = ProviderBudget(maxRequestsPerSecond: endpoint.maxRequestsPerSecond, burst: endpoint.burst)
        }
        let historyEndpoints = ["bitstamp": rates.bitstamp, "coinbase-exchange": rates.coinbaseExchange]
        for name in rates.history.providers {
            guard let endpoint = historyEndpoints[name] else { continue }
            c.budgets[name] = ProviderBudget(maxRequestsPerSecond: endpoint.maxRequestsPerSecond, burst: endpoint.burst)
        }
        c.budgets["frankfurter"] = ProviderBudget(maxRequestsPerSecond: rates.frankfurter.maxRequestsPerSecond,
                                                  burst: rates.frankfurter.burst)
        for name in books.providers {
            switch BooksProviderID(rawValue: name) {
            case .googleBooks?:
                c.budgets[name] = ProviderBudget(maxRequestsPerSecond: books.googleBooks.maxRequestsPerSecond,
                                                 burst: books.googleBooks.burst)
            case .openLibrary?:
                c.budgets[name] = ProviderBudget(maxRequestsPerSecond: books.openLibrary.maxRequestsPerSecond,
                                                 burst: books.openLibrary.burst)
            case nil:
                break
            }
        }
        return c
    }
}
