import Books
import Rates

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
