import Cache

/// What the admin API needs from the cache: `CacheStore` conforms, and tests use fakes.
public protocol CacheAdministration: Sendable {
    func stats() -> [String: CacheStats]
    func purgeAll()
    @discardableResult func purge(namespace: String) -> Bool
}

extension CacheStore: CacheAdministration {}
