/// How one namespace's keys and values travel through the shared layer: the layer itself and
/// the byte forms of the namespace's key and value types (`SharedCacheKey`,
/// `SharedCacheValue`), captured where those conformances are known, so that `CacheNamespace`
/// itself needs none.
@usableFromInline
struct SharedBinding<Key: Hashable & Sendable, Value: CacheValue>: Sendable {
    let layer: SharedCacheLayer
    let keyBytes: @Sendable (Key) -> [UInt8]
    let encode: @Sendable (Value) -> [UInt8]
    let decode: @Sendable ([UInt8]) -> Value?
}

extension SharedBinding where Key: SharedCacheKey, Value: SharedCacheValue {
    init(layer: SharedCacheLayer) {
        self.init(layer: layer, keyBytes: { $0.sharedCacheKeyBytes }, encode: { $0.sharedCacheBytes },
                  decode: { Value(sharedCacheBytes: $0) })
    }
}
