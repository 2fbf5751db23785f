import HTTPClient

/// Which origins a cover may be fetched from: only those of configured providers.
///
/// A cover URL comes from an upstream's answer; fetching whatever it names would let a
/// compromised or confused upstream (or a crafted catalogue record) point almanac at internal
/// addresses. So the allow-list is built from configuration alone, and every entry fixes
/// scheme, host and port (default ports made explicit: `https://h` is `https://h:443`):
/// - every configured provider's base URL origin (API and covers base URLs);
/// - with `google-books`: Google's documented thumbnail hosts, `books.google.com` and
///   `books.googleusercontent.com` (thumbnails redirect from the first to the second), over
///   https on 443 only;
/// - with `open-library`, and only while `coversBaseURL` is the real
///   `https://covers.openlibrary.org`: `archive.org` and its subdomains over https on 443,
///   because Open Library stores most cover images at the Internet Archive (its operator) and
///   answers with a redirect there. A mirror configured as `coversBaseURL` serves its own bytes.
/// URLs with userinfo, numeric-host tricks, IPv6 literals, trailing dots or other schemes are
/// refused whatever the list holds (`UpstreamOrigin`). The same policy goes to the HTTP
/// client with the request, so each redirect hop is held to it before it is requested.
public struct CoverHostPolicy: Sendable, Equatable {
    public let policy: HostPolicy

    /// Google's documented thumbnail hosts, over https on 443.
    public static let googleImageEntries: Set<HostPolicy.Entry> = Set(
        GoogleBooksProvider.imageHosts.map { HostPolicy.Entry(scheme: "https", host: $0, port: 443) })
    /// The real Open Library covers origin, and where it redirects: the Internet Archive.
    public static let openLibraryCoversEntry = HostPolicy.Entry(scheme: "https", host: "covers.openlibrary.org", port: 443)
    public static let internetArchiveEntry = HostPolicy.Entry(scheme: "https", host: "archive.org", port: 443,
                                                              includesSubdomains: true)

    public init(policy: HostPolicy) { self.policy = policy }

    /// Each configured provider's base URL origin and the cover origins it names
    /// (`BooksProvider.coverEntries`).
    public init(configuration: BooksConfiguration) {
        var entries = Set<HostPolicy.Entry>()
        for provider in configuration.makeProviders() {
            entries.formUnion(Self.entries(forBaseURL: provider.baseURL))
            entries.formUnion(provider.coverEntries)
        }
        self.policy = HostPolicy(entries)
    }

    /// The origin of `base`, or nothing when it is not one `UpstreamOrigin` accepts.
    static func entries(forBaseURL base: String) -> Set<HostPolicy.Entry> {
        guard case .success(let origin) = UpstreamOrigin.parse(base) else { return [] }
        return [HostPolicy.Entry(origin)]
    }

    /// A covers base URL's origin, plus the Internet Archive while it is the real Open Library
    /// covers origin (which redirects there).
    static func entries(forCoversBaseURL base: String) -> Set<HostPolicy.Entry> {
        guard case .success(let origin) = UpstreamOrigin.parse(base) else { return [] }
        let entry = HostPolicy.Entry(origin)
        return entry == openLibraryCoversEntry ? [entry, internetArchiveEntry] : [entry]
    }

    /// True when `url` is an acceptable http(s) URL on an allowed origin.
    public func allows(_ url: String) -> Bool { policy.allows(url) }

    /// The URL's origin, or why it is refused.
    public func check(_ url: String) -> Result<UpstreamOrigin, HostPolicy.Refusal> { policy.check(url) }
}
