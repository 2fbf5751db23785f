/// How one namespace's keys and values travel through the shared layer: the layer itself and
/// the byte forms of the namespace's key and value types (`SharedCacheKey`,
/// `SharedCacheValue`), captured where those conformances are known, so that `CacheNamespace`
/// itself needs none.
@usableFromInline
struct SharedBinding<Key: Hashable & Sendable, Value: CacheValue>: Sendable {
    let layer: SharedCacheLayer
    let keyBytes: @Sendable (Key) -> [UInt8]
    let encode: @Sendable (Value) -> [UInt8]
    /// The one reader of a value from the shared layer: the value an envelope carries for a key
    /// (its bytes), or why it must not be served.
    let accept: @Sendable (SharedEnvelope, [UInt8]) -> Result<Value, SharedRejection>
}

extension SharedBinding where Key: SharedCacheKey, Value: SharedCacheValue {
    init(layer: SharedCacheLayer) {
        self.init(layer: layer, keyBytes: { $0.sharedCacheKeyBytes }, encode: { $0.sharedCacheBytes },
                  accept: { envelope, key in Self.accept(envelope, key: key) })
    }

    /// Every check of the value an envelope carries: its record reads strictly
    /// (`init(sharedCacheBytes:)`), it belongs to `key`, and the envelope's validator is the one
    /// almanac computes for it, so no `ETag` byte is ever taken from the shared store on trust.
    static func accept(_ envelope: SharedEnvelope, key: [UInt8]) -> Result<Value, SharedRejection> {
        guard let value = Value(sharedCacheBytes: envelope.value) else { return .failure(.value) }
        guard value.belongs(toSharedCacheKey: key) else { return .failure(.key) }
        guard value.cacheValidator == envelope.validator else { return .failure(.validator) }
        return .success(value)
    }
}
