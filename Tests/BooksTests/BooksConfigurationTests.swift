import Testing
import Upstream
@testable import Books

@Suite struct BooksConfigurationTests {
    @Test func defaultsAreTheDocumentedOnes() {
        let configuration = BooksConfiguration()
        #expect(configuration.providers == ["google-books", "open-library"])
        #expect(configuration.ttlSeconds == 86_400)
        #expect(configuration.notFoundTtlSeconds == 3_600)
        #expect(configuration.staleSeconds == 604_800)
        #expect(configuration.maxCoverBytes == 2_097_152)
        #expect(configuration.endpoints["google-books"] == ProviderEndpoint(
            baseURL: "https://www.googleapis.com", budget: ProviderBudget(maxRequestsPerSecond: 1)))
        #expect(configuration.endpoints["open-library"].baseURL == "https://openlibrary.org")
        #expect(configuration.openLibrary.coversBaseURL == "https://covers.openlibrary.org")
        #expect(configuration.kinds.map(\.descriptor.configName) == ["googleBooks", "openLibrary"])
    }

    @Test func providersAreBuiltInOrderAtTheirConfiguredBaseURLs() {
        var configuration = BooksConfiguration()
        configuration.providers = ["open-library", "google-books"]
        configuration.endpoints["google-books"].baseURL = "http://127.0.0.1:9000"
        configuration.googleBooks.apiKey = "k3y-value"
        let providers = configuration.makeProviders()
        #expect(providers.map(\.name) == ["open-library", "google-books"])
        let google = providers.last as? GoogleBooksProvider
        #expect(google?.baseURL == "http://127.0.0.1:9000")
        #expect(google?.settings.apiKey == "k3y-value")
    }
}
