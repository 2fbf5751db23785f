import Books
import Cache
import HTTPClient
import Upstream

extension BooksService {
    /// The service as almanac runs it: providers from `configuration.providers`, answers
    /// rendered with `BooksRendering.standard`.
    public convenience init(configuration: BooksConfiguration, client: any HTTPClient, cache: CacheStore,
                            steward: Steward? = nil) {
        self.init(configuration: configuration, client: client, cache: cache, rendering: BooksRendering.standard,
                  steward: steward)
    }
}
