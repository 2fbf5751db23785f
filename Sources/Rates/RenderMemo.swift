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
public final class RenderMemo: Sendable {
    /// A body ready to serve and its strong ETag (quoted, RFC 9110 §8.8.3).
    public struct Rendered: Sendable {
        public let body: [UInt8]
        public let etag: String
    }

    private struct State {
        var validator = ""
        var entries: [RatesQuery: Rendered] = [:]
        var renders = 0
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
        let memo = state.current
        if let hit = memo.state.withLock({ $0.validator == validator ? $0.entries[query] : nil }) { return hit }
        let body = try RatesRenderer.render(query, table: table, constituents: constituents)
        let rendered = Rendered(body: body, etag: makeETag(validator, query.representationKey))
        memo.state.withLock { s in
            s.renders += 1
            if s.validator != validator {
                s.validator = validator
                s.entries.removeAll()
            } else if s.entries.count >= capacity {
                s.entries.removeAll(keepingCapacity: true)
            }
            s.entries[query] = rendered
        }
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
