import Books
import Cache
import HTTPClient
import Upstream

extension BooksService {
    /// The service as almanac runs it: providers from `configuration.providers`, cached
    /// not-found answers written as almanac's problem documents (`BooksProblems.encode`).
    public convenience init(configuration: BooksConfiguration, client: any HTTPClient, cache: CacheStore,
                            steward: Steward? = nil) {
        self.init(configuration: configuration, client: client, cache: cache, problemEncoder: BooksProblems.encode,
                  steward: steward)
    }
}
