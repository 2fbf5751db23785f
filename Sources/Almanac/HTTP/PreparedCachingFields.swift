import Cache
import HTTP1

/// The caching fields of a fresh hit (`ETag`, `Cache-Control`, `Age`, `X-Cache`,
/// `Cache-Status`, `Content-Type`, and `Vary`/`Content-Encoding` where they apply), prepared
/// once per representation and second (`PreparedHeaderLines`) instead of being built and
/// written as strings on every hit.
///
/// Every hit on one entry within one second has the same fields, so the few most recent
/// combinations are kept. A combination is prepared the second time it is seen: a key asked
/// for once (20,000 books each asked for once a minute) costs what it did before, plus one
/// look through the table.
///
/// Each event loop keeps its own table (`LoopLocal`): a hit takes only its loop's uncontended
/// lock and reads a block its loop made, so no lock, slot or block's reference count is written
/// by two loops (each loop prepares a combination for itself, once a second).
enum PreparedCachingFields {
    /// What makes the fields differ. The validator and content type are compared last: the
    /// seconds differ first when anything does.
    struct Key: Equatable {
        var left: Int
        var age: Int
        var status: Int
        var gzip: Bool
        var vary: Bool
        var etag: String
        var contentType: String

        /// Whether this key has these parts: compared in place, so a hit builds no key (no
        /// retain of its tag and type) to look one up.
        @inline(__always)
        func matches(left: Int, age: Int, status: Int, gzip: Bool, vary: Bool, etag: String, contentType: String) -> Bool {
            self.left == left && self.age == age && self.status == status && self.gzip == gzip && self.vary == vary
                && self.etag == etag && self.contentType == contentType
        }
    }

    private struct Slot {
        var key: Key
        var prepared: PreparedHeaderLines?
    }

    private struct Table {
        var slots: [Slot] = []
        var next = 0
    }

    /// Enough for the busiest entries of one second (the rates table, an index, a few books,
    /// each with and without gzip); a busier mix only costs the plain path more often.
    static let capacity = 32

    private static let tables = LoopLocal { Table() }

    /// The prepared block for the key of these parts, making it with `fields` when this is the
    /// second sighting; nil when the fields should be sent plain (first sighting, or fields the
    /// writer would refuse). Takes the parts, not a `Key`: the key is made only when stored, so
    /// a hit that finds its block builds none.
    static func prepared(left: Int, age: Int, status: Int, gzip: Bool, vary: Bool, etag: String, contentType: String,
                         fields: () -> [HTTPHeaders.Field]) -> PreparedHeaderLines? {
        let local = tables.current
        let found: (index: Int, prepared: PreparedHeaderLines?)? = local.state.withLock { table in
            for index in table.slots.indices where table.slots[index].key.matches(
                left: left, age: age, status: status, gzip: gzip, vary: vary, etag: etag, contentType: contentType) {
                return (index, table.slots[index].prepared)
            }
            let key = Key(left: left, age: age, status: status, gzip: gzip, vary: vary, etag: etag, contentType: contentType)
            let slot = Slot(key: key, prepared: nil)
            if table.slots.count < capacity {
                table.slots.append(slot)
            } else {
                table.slots[table.next] = slot
                table.next = (table.next + 1) % capacity
            }
            return nil
        }
        guard let found else { return nil }
        if let prepared = found.prepared { return prepared }
        guard let made = PreparedHeaderLines(fields()) else { return nil }
        local.state.withLock { table in
            if found.index < table.slots.count, table.slots[found.index].key.matches(
                left: left, age: age, status: status, gzip: gzip, vary: vary, etag: etag, contentType: contentType) {
                table.slots[found.index].prepared = made
            }
        }
        return made
    }
}
