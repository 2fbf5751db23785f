import Cache

/// A small text value that can travel through the cache's shared layer, for tests of that
/// layer: its validator is `n-<text>`, its bytes its UTF-8. A text starting with "!" cannot be
/// read back, as a value written by a future, incompatible version could not.
public struct SharedText: SharedCacheValue, Equatable {
    public var text: String
    public var cacheCost: Int { text.utf8.count }
    public var cacheValidator: String { "n-\(text)" }
    public var sharedCacheBytes: [UInt8] { Array(text.utf8) }

    public init(_ text: String) { self.text = text }

    public init?(sharedCacheBytes: [UInt8]) {
        guard let text = String(validating: sharedCacheBytes, as: UTF8.self), !text.hasPrefix("!") else { return nil }
        self.text = text
    }
}
