import HTTPClient

extension BooksConfiguration {
    /// Every problem with this configuration, one line each naming its key (for
    /// `almanac check-config`, which exits 2 when any is returned). Empty when valid.
    public func validationProblems() -> [String] {
        var problems: [String] = []
        if providers.isEmpty { problems.append("books.providers: at least one provider is required") }
        if Set(providers).count != providers.count { problems.append("books.providers: a provider is listed twice") }
        for (key, value) in [("books.ttlSeconds", ttlSeconds), ("books.notFoundTtlSeconds", notFoundTtlSeconds)]
        where !(value > 0 && value.isFinite) {
            problems.append("\(key): must be a positive number of seconds")
        }
        if !(staleSeconds >= 0 && staleSeconds.isFinite) {
            problems.append("books.staleSeconds: must be zero or a positive number of seconds")
        }
        if maxCoverBytes <= 0 { problems.append("books.maxCoverBytes: must be positive") }
        for (key, url) in [("books.googleBooks.baseUrl", googleBooks.baseUrl),
                           ("books.openLibrary.baseUrl", openLibrary.baseUrl),
                           ("books.openLibrary.coversBaseUrl", openLibrary.coversBaseUrl)]
        where UpstreamURL.host(of: url) == nil
            || (UpstreamURL.pathAndQuery(of: url) ?? "").utf8.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            problems.append("\(key): must be an absolute http(s) URL without query, e.g. https://example.org")
        }
        if let country = googleBooks.country, !(country.count == 2 && country.allSatisfy { $0.isASCII && $0.isLetter }) {
            problems.append("books.googleBooks.country: must be a two-letter ISO 3166-1 code, e.g. US")
        }
        return problems
    }

    /// Parses `books.providers` names (also the comma-separated `ALMANAC_BOOKS_PROVIDERS`).
    /// Returns the unknown names instead when there are any.
    public static func providers(named names: [String]) -> Result<[BooksProviderID], UnknownProviders> {
        let trimmed = names.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        let unknown = trimmed.filter { BooksProviderID(rawValue: $0) == nil }
        guard unknown.isEmpty else { return .failure(UnknownProviders(names: unknown)) }
        return .success(trimmed.compactMap(BooksProviderID.init(rawValue:)))
    }

    public struct UnknownProviders: Error, Equatable, CustomStringConvertible {
        public var names: [String]
        public var description: String {
            "unknown books provider(s) \(names.joined(separator: ", ")); known: "
                + BooksProviderID.allCases.map(\.rawValue).joined(separator: ", ")
        }
    }
}
