import Testing
@testable import Books

@Suite struct BooksConfigurationTests {
    @Test func defaultsAreTheContractsAndValid() {
        let configuration = BooksConfiguration()
        #expect(configuration.providers == [.googleBooks, .openLibrary])
        #expect(configuration.ttlSeconds == 86_400)
        #expect(configuration.notFoundTtlSeconds == 3_600)
        #expect(configuration.staleSeconds == 604_800)
        #expect(configuration.maxCoverBytes == 2_097_152)
        #expect(configuration.googleBooks.baseUrl == "https://www.googleapis.com")
        #expect(configuration.openLibrary.coversBaseUrl == "https://covers.openlibrary.org")
        #expect(configuration.validationProblems() == [])
    }

    @Test func problemsNameTheirKeys() {
        var configuration = BooksConfiguration()
        configuration.providers = []
        configuration.notFoundTtlSeconds = 0
        configuration.googleBooks.baseUrl = "www.googleapis.com"
        configuration.openLibrary.coversBaseUrl = "https://covers.openlibrary.org/?x=1"
        configuration.googleBooks.country = "GBR"
        #expect(configuration.validationProblems().map { String($0.prefix { $0 != ":" }) } == [
            "books.providers", "books.notFoundTtlSeconds", "books.googleBooks.baseUrl",
            "books.openLibrary.coversBaseUrl", "books.googleBooks.country",
        ])
    }

    @Test func providerNames() {
        #expect(BooksConfiguration.providers(named: ["open-library", " google-books"]) == .success([.openLibrary, .googleBooks]))
        #expect(BooksConfiguration.providers(named: ["google", "open-library"]) == .failure(.init(names: ["google"])))
    }
}
