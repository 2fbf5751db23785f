import HTTPClient
/// Which hosts a cover may be fetched from: only those of configured providers.
///
/// A cover URL comes from an upstream's answer; fetching whatever it names would let a
/// compromised or confused upstream (or a crafted catalogue record) point almanac at internal
/// addresses. So the allow-list is built from configuration alone:
/// - every configured provider's base URL host;
/// - with `google-books`: Google's thumbnail hosts, `books.google.com` and
///   `books.googleusercontent.com` (thumbnails redirect from the first to the second);
/// - with `open-library`: the `coversBaseUrl` host, and, only while that is the real
///   `covers.openlibrary.org`, `archive.org` and its subdomains, because Open Library stores
///   most cover images at the Internet Archive (its operator) and answers with a redirect
///   there. A mirror configured as `coversBaseUrl` is expected to serve its own bytes.
/// The same set goes to the HTTP client as `allowedHosts`, so redirects are held to it too.
public struct CoverHostPolicy: Sendable, Equatable {
    /// Exact host names, or `.suffix` entries matching subdomains (the client's convention).
    public let hosts: Set<String>

    public init(hosts: Set<String>) { self.hosts = hosts }

    public init(configuration: BooksConfiguration) {
        var hosts = Set<String>()
        for provider in configuration.providers {
            switch provider {
            case .googleBooks:
                if let host = UpstreamURL.host(of: configuration.googleBooks.baseUrl) { hosts.insert(host) }
                hosts.formUnion(GoogleBooksProvider.imageHosts)
            case .openLibrary:
                if let host = UpstreamURL.host(of: configuration.openLibrary.baseUrl) { hosts.insert(host) }
                if let host = UpstreamURL.host(of: configuration.openLibrary.coversBaseUrl) {
                    hosts.insert(host)
                    if host == "covers.openlibrary.org" { hosts.formUnion(["archive.org", ".archive.org"]) }
                }
            }
        }
        self.hosts = hosts
    }

    /// True when `url` is an absolute http(s) URL on an allowed host.
    public func allows(_ url: String) -> Bool {
        guard let host = UpstreamURL.host(of: url) else { return false }
        return HostPolicy.allows(host, in: hosts)
    }
}
