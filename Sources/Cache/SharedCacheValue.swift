/// A value the cache's shared layer (L2, one store every replica reads) can carry from one
/// process to another: it turns itself into bytes, and back.
///
/// The bytes are the value's content only; the shared layer wraps them in its own versioned
/// envelope with the entry's times and validator. Decoding is given bytes written by any
/// replica, of this version or another, or damaged in between: it must never trap, and it
/// returns nil for anything it cannot read fully (the shared layer then treats the entry as
/// absent). A decoded value must be equal to the encoded one, validator included, so every
/// replica serves the same bytes under the same `ETag`.
public protocol SharedCacheValue: CacheValue {
    /// The value's content as bytes that `init(sharedCacheBytes:)` reads back.
    var sharedCacheBytes: [UInt8] { get }
    /// The value `sharedCacheBytes` were made from, or nil when the bytes cannot be read.
    init?(sharedCacheBytes: [UInt8])
    /// Whether this value, read back from the shared layer, can be the one almanac stored under
    /// `key` (the key's `sharedCacheKeyBytes`): a book answer holds its ISBN-13, a history
    /// block its last day. The envelope names the key in any case (`SharedEnvelope.key`), for
    /// every type; a value that holds something of its key should say so here too.
    func belongs(toSharedCacheKey key: [UInt8]) -> Bool
}

extension SharedCacheValue {
    /// A value that holds nothing of its key: the envelope's key alone ties it.
    public func belongs(toSharedCacheKey key: [UInt8]) -> Bool { true }
}

/// A key the shared layer can name in the shared store: the same key gives the same bytes in
/// every replica and every version that shares the store's key layout. The bytes become part
/// of a Redis key, so they should be short, printable ASCII (no spaces or control bytes).
public protocol SharedCacheKey: Hashable & Sendable {
    var sharedCacheKeyBytes: [UInt8] { get }
}

extension String: SharedCacheKey {
    /// The key's UTF-8 bytes (the cache's own string keys are ASCII: currency pairs, slugs).
    public var sharedCacheKeyBytes: [UInt8] { Array(utf8) }
}
