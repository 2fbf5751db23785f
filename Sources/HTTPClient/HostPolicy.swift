/// The origins a request may reach when its URL was chosen by an upstream (covers, and every
/// hop of their redirects): each entry fixes scheme, host (exactly, or a domain with its
/// subdomains) and port. A URL is allowed only when `UpstreamOrigin.parse` accepts it (no
/// userinfo, no numeric-host tricks) and its origin matches an entry on all three.
public struct HostPolicy: Sendable, Equatable {
    public struct Entry: Sendable, Hashable {
        public var scheme: String
        /// Lower case, no trailing dot.
        public var host: String
        public var port: Int
        /// `archive.org` with this set also matches `ia800.us.archive.org` (never `evilarchive.org`).
        public var includesSubdomains: Bool

        public init(scheme: String, host: String, port: Int, includesSubdomains: Bool = false) {
            self.scheme = scheme.lowercased()
            self.host = host.lowercased()
            self.port = port
            self.includesSubdomains = includesSubdomains
        }

        /// The entry for exactly `origin`.
        public init(_ origin: UpstreamOrigin) {
            self.init(scheme: origin.scheme, host: origin.host, port: origin.port)
        }

        func matches(_ origin: UpstreamOrigin) -> Bool {
            guard origin.scheme == scheme, origin.port == port else { return false }
            return origin.host == host || (includesSubdomains && origin.host.hasSuffix("." + host))
        }
    }

    public var entries: Set<Entry>

    public init(_ entries: Set<Entry>) { self.entries = entries }

    /// Why a URL is not allowed.
    public enum Refusal: Sendable, Equatable, Error, CustomStringConvertible {
        /// The URL itself is refused (its trick is named).
        case url(UpstreamOrigin.Refusal)
        /// A well-formed URL on an origin outside the allow-list.
        case origin(UpstreamOrigin)

        public var description: String {
            switch self {
            case .url(let refusal): return refusal.rawValue
            case .origin(let origin): return "origin \(origin) is not on the allow-list"
            }
        }
    }

    /// The URL's origin when it is allowed, else why not.
    public func check(_ url: String) -> Result<UpstreamOrigin, Refusal> {
        switch UpstreamOrigin.parse(url) {
        case .failure(let refusal): return .failure(.url(refusal))
        case .success(let origin):
            return entries.contains { $0.matches(origin) } ? .success(origin) : .failure(.origin(origin))
        }
    }

    public func allows(_ url: String) -> Bool {
        if case .success = check(url) { return true }
        return false
    }
}

/// What the client does with a 3xx answer.
public enum RedirectRule: Sendable, Equatable {
    /// Upstream API calls: a 3xx is never followed; it fails as `.redirected` (a provider
    /// failure of its own kind), so no API answer can steer almanac to another address.
    case never
    /// Covers: at most `HTTPClientConfiguration.maxRedirects` hops, and the first URL and every
    /// hop must pass `policy` before any connection is made to it.
    case within(HostPolicy)
}
