import Base
import Cache

/// Rendered bodies keyed by query, valid for one table validator.
///
/// A cache hit must not re-encode JSON: the first request for a `RatesQuery` renders it, every
/// later one gets the same `[UInt8]` storage (copy-on-write, never copied). When the table's
/// validator changes the memo starts over; when it holds `capacity` bodies (free-form
/// `amount`s make the key space unbounded) it is emptied rather than tracking recency — the
/// next requests re-render what is popular.
///
/// Each server event loop keeps its own memo (`LoopLocal`), so a hit takes no lock and writes
/// no memory another loop uses; a body is rendered once per loop that serves it (at most
/// `capacity` bodies per loop).
///
/// A loop usually answers one query over and over (`GET /v1/rates`), so each loop's memo also
/// keeps the query it answered last with its rendering, and compares a request's query with it
/// before hashing: equal, it is the very entry the dictionary holds for that query (the two
/// change together), read without hashing the query or probing the table.
public final class RenderMemo: Sendable {
    /// A body ready to serve and its strong ETag (quoted, RFC 9110 §8.8.3). A class, so a hit
    /// hands out one reference rather than copying an array and a string.
    public final class Rendered: Sendable {
        public let body: [UInt8]
        public let etag: String

        init(body: [UInt8], etag: String) {
            self.body = body
            self.etag = etag
        }
    }

    private struct State {
        var validator = ""
        var entries: [RatesQuery: Rendered] = [:]
        /// The query answered last, and its entry in `entries` (`lastRendered` nil: none; the
        /// query is then meaningless). Two fields, not an optional pair: reading an optional
        /// pair holding an enum copied it through the runtime's generic witnesses.
        var lastQuery = RatesQuery.currencies
        var lastRendered: Rendered?
        var renders = 0

        /// The rendering of `query` for `validator`, if held: the last one's when it is the
        /// same query, else the dictionary's (which then becomes the last).
        mutating func find(_ query: RatesQuery, validator: String) -> Rendered? {
            guard self.validator == validator else { return nil }
            if let lastRendered, lastQuery == query { return lastRendered }
            guard let found = entries[query] else { return nil }
            (lastQuery, lastRendered) = (query, found)
            return found
        }

        /// Keeps `rendered` as `query`'s, emptying the memo first for a new validator or when
        /// it is full.
        mutating func store(_ query: RatesQuery, _ rendered: Rendered, validator: String, capacity: Int) {
            renders += 1
            if self.validator != validator {
                self.validator = validator
                entries.removeAll()
            } else if entries.count >= capacity {
                entries.removeAll(keepingCapacity: true)
            }
            entries[query] = rendered
            (lastQuery, lastRendered) = (query, rendered)
        }
    }

    /// Builds the strong ETag from the table validator and the query's representation key.
    public typealias ETagMaker = @Sendable (_ validator: String, _ representationKey: String) -> String

    public let capacity: Int
    private let makeETag: ETagMaker
    private let state = LoopLocal { State() }

    /// - Parameter etag: how ETags are spelled; the HTTP layer passes its shared helper so every
    ///   endpoint of the service derives tags the same way.
    public init(capacity: Int = 1024, etag: @escaping ETagMaker = RenderMemo.defaultETag) {
        self.capacity = max(1, capacity)
        self.makeETag = etag
    }

    /// `"<validator>-<ContentDigest of representationKey>"`.
    public static let defaultETag: ETagMaker = { validator, key in
        var hasher = ContentDigest()
        hasher.combine(key)
        return "\"\(validator)-\(hasher.hex)\""
    }

    /// The memoized body for `query` against `table` (whose cache validator is `validator`),
    /// rendering it on first use. Errors (unknown codes) are not memoized. `constituents` (the
    /// index's, named by the CoinDesk disclaimer) belong to the value `validator` digests.
    public func rendered(_ query: RatesQuery, table: RateTable, validator: String,
                         constituents: [String] = []) throws(RatesInputError) -> Rendered {
        if let hit = held(query, validator: validator) { return hit }
        return try render(query, table: table, validator: validator, constituents: constituents)
    }

    /// The memoized body for `query` against the cached `value` (whose cache validator is
    /// `validator`): as `rendered(_:table:validator:constituents:)`, reading the table and the
    /// constituents out of `value` only to render.
    public func rendered(_ query: RatesQuery, from value: IndexedRates, validator: String) throws(RatesInputError) -> Rendered {
        if let hit = held(query, validator: validator) { return hit }
        return try render(query, table: value.table, validator: validator, constituents: value.disclaimerConstituents)
    }

    /// This loop's rendering of `query` for `validator`, if it holds one.
    private func held(_ query: RatesQuery, validator: String) -> Rendered? {
        state.current.state.withLock { $0.find(query, validator: validator) }
    }

    /// Renders `query` and keeps it (the last query, and in the dictionary).
    private func render(_ query: RatesQuery, table: RateTable, validator: String,
                        constituents: [String]) throws(RatesInputError) -> Rendered {
        let body = try RatesRenderer.render(query, table: table, constituents: constituents)
        let rendered = Rendered(body: body, etag: makeETag(validator, query.representationKey))
        state.current.state.withLock { $0.store(query, rendered, validator: validator, capacity: capacity) }
        return rendered
    }

    /// Bodies rendered so far, by every loop (tests assert hits render nothing).
    public var renderCount: Int { total(\.renders) }
    /// Bodies held, by every loop.
    public var count: Int { total(\.entries.count) }

    private func total(_ part: KeyPath<State, Int>) -> Int {
        var sum = 0
        state.forEach { sum += $0[keyPath: part] }
        return sum
    }
}
