/// What a cached response was rendered from, for the pipeline steps that finish it: its
/// validator and media type, how a cache served it, and which content coding it may take.
///
/// A route renders only the body and this description; the steps after it choose the coding
/// (a compressed twin), decide `304 Not Modified` on the chosen tag, and write the fields
/// (`ETag`, `Content-Type`, `Cache-Control`, `Age`, `Cache-Status`, …). Keeping the facts
/// rather than the fields lets each step change one thing (the coding changes the tag) before
/// anything is written, and lets the field writer reuse a block prepared for identical facts.
///
/// A value type of a few words: it travels inside every cached response without allocating.
public struct Representation: Sendable, Equatable {
    /// How a cache served the representation (the inputs of `X-Cache`, `Age`,
    /// `Cache-Control: max-age` and RFC 9211 `Cache-Status`).
    public struct Freshness: Sendable, Equatable {
        public var outcome: CacheOutcome
        /// Seconds since the (oldest) value was loaded.
        public var ageSeconds: Double
        /// Seconds of freshness left (0 when stale).
        public var freshnessLeftSeconds: Double
        /// A miss answered by a load another request started (RFC 9211 `collapsed`).
        public var collapsed: Bool
        /// Served from a cache shared with other replicas rather than this process.
        public var shared: Bool

        @inlinable
        public init(outcome: CacheOutcome, ageSeconds: Double, freshnessLeftSeconds: Double,
                    collapsed: Bool = false, shared: Bool = false) {
            self.outcome = outcome
            self.ageSeconds = ageSeconds
            self.freshnessLeftSeconds = freshnessLeftSeconds
            self.collapsed = collapsed
            self.shared = shared
        }
    }

    /// A cache lookup's outcome, spelled as `X-Cache` says it.
    public enum CacheOutcome: String, Sendable {
        case hit = "HIT", miss = "MISS", stale = "STALE"
    }

    /// Which content coding the body has, and whether it had a choice.
    public enum ContentCoding: UInt8, Sendable {
        /// A coded twin may be offered; no step has chosen yet (what a route renders).
        case negotiable
        /// Sent as it is, with no coded twin (too small, an image, or no coding step).
        case fixed
        /// A coded twin exists and the identity was chosen: the answer varies by
        /// `Accept-Encoding`.
        case identity
        /// The gzip twin was chosen: the body and `etag` are the twin's.
        case gzip
    }

    /// The strong entity tag of the body as it is now (the twin's own tag once coded).
    public var etag: String
    /// The media type (`Content-Type`), the same for every coding.
    public var contentType: String
    public var freshness: Freshness
    public var contentCoding: ContentCoding

    @inlinable
    public init(etag: String, contentType: String, freshness: Freshness, contentCoding: ContentCoding = .negotiable) {
        self.etag = etag
        self.contentType = contentType
        self.freshness = freshness
        self.contentCoding = contentCoding
    }

    /// Whether the answer depends on `Accept-Encoding` (a coded twin exists).
    @inlinable
    public var variesByEncoding: Bool { contentCoding == .identity || contentCoding == .gzip }
}
