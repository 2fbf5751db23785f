import Cache
import Gzip
import Synchronization
import Transport

/// The gzip-coded twin of each stored representation, made once and served to every client
/// that accepts gzip (RFC 9110 §8.4.1.3).
///
/// A representation is identified by its strong ETag: same tag, same bytes (that is what
/// "strong" promises, §8.8.3). The first gzip request for a tag compresses the bytes; every
/// later one gets the same compressed storage, so no response is compressed per request.
/// Compressing on first demand rather than when the answer enters the cache means answers no
/// client asks gzip for cost nothing, and one table of variants serves every route (rates,
/// CoinDesk, books, history, the OpenAPI document) without each domain knowing about codings.
///
/// Bounded by `maxBytes` of compressed data (a replaced representation's twin ages out):
/// past the bound the oldest variants are dropped first; a dropped one is made again on demand.
///
/// One table per event loop (`LoopLocal`), each with an equal share of `maxBytes`: a gzip hit
/// takes only its own loop's lock and reads only its own loop's memory, like every other hit
/// (docs/server.md, "Event loops"). A loop's first gzip request for a tag looks in the other
/// loops' tables before compressing, so a representation is still compressed once (two loops
/// missing at the same instant may both compress) and the loops share its bytes.
public final class GzipVariants: Sendable {
    /// A compressed representation and its own strong ETag (a different representation must
    /// carry a different strong tag, §8.8.3.3).
    public struct Variant: Sendable {
        public let body: [UInt8]
        public let etag: String
    }

    /// Bodies below this size are sent as they are: gzip's header and trailer would eat the
    /// saving.
    public static let minimumBytes = 1024

    public let maxBytes: Int
    private struct State {
        var variants: [String: Variant] = [:]
        var order: [String] = []
        var oldest = 0
        var bytes = 0
        var compressions = 0
    }
    private let tables = LoopLocal { State() }
    /// Each loop's table's share of `maxBytes`.
    private let maxBytesPerLoop: Int

    public init(maxBytes: Int = 16 << 20) {
        self.maxBytes = max(1, maxBytes)
        maxBytesPerLoop = max(1, self.maxBytes / LoopShard.count)
    }

    /// Whether a body of this type and size is worth a gzip twin: text and JSON from 1 KiB on;
    /// images are already compressed.
    public static func applies(contentType: String, count: Int) -> Bool {
        guard count >= minimumBytes else { return false }
        return contentType.utf8.first != UInt8(ascii: "i") || !contentType.hasPrefix("image/")
    }

    /// The gzip twin of `body` (whose strong tag is `etag`), made on first use. Nil when zlib
    /// fails, which leaves the identity representation to be served.
    public func variant(of body: [UInt8], etag: String) -> Variant? {
        let table = tables.current
        if let found = table.state.withLock({ $0.variants[etag] }) { return found }
        // This loop's first gzip request for the tag: another loop may have made the twin
        // already, and its bytes (shared storage, not a copy) serve here too.
        var elsewhere: Variant?
        tables.forEach { s in if elsewhere == nil { elsewhere = s.variants[etag] } }
        let made: Variant
        if let elsewhere {
            made = elsewhere
        } else {
            guard let compressed = try? Gzip.compress(body) else { return nil }
            made = Variant(body: compressed, etag: GzipVariants.etag(for: etag))
        }
        let compressedHere = elsewhere == nil
        let maxBytes = maxBytesPerLoop
        return table.state.withLock { s in
            if let raced = s.variants[etag] { return raced }
            if compressedHere { s.compressions += 1 }
            s.variants[etag] = made
            s.order.append(etag)
            s.bytes += made.body.count
            while s.bytes > maxBytes, s.oldest < s.order.count {
                let victim = s.order[s.oldest]
                s.oldest += 1
                if let gone = s.variants.removeValue(forKey: victim) { s.bytes -= gone.body.count }
            }
            if s.oldest > 1024, s.oldest * 2 > s.order.count {
                s.order.removeFirst(s.oldest)
                s.oldest = 0
            }
            return made
        }
    }

    /// `"abc"` → `"abc-gzip"`: the identity tag with the coding appended inside the quotes.
    static func etag(for identity: String) -> String {
        guard identity.hasSuffix("\"") else { return identity + "-gzip" }
        return String(identity.dropLast()) + "-gzip\""
    }

    /// How many bodies have been compressed, on every loop (tests check hits compress nothing).
    public var compressionCount: Int {
        var total = 0
        tables.forEach { total += $0.compressions }
        return total
    }

    /// Compressed bytes held, on every loop.
    public var storedBytes: Int {
        var total = 0
        tables.forEach { total += $0.bytes }
        return total
    }
}
