import Books
import Cache
import HTTPClient

extension BooksService {
    /// The service as almanac runs it: providers from `configuration.providers`, answers
    /// rendered with `BooksRendering.standard`.
    public convenience init(configuration: BooksConfiguration, client: any HTTPClient, cache: CacheStore) {
        self.init(configuration: configuration, client: client, cache: cache, rendering: BooksRendering.standard)
    }
}
