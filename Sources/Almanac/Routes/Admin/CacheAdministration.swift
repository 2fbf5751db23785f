import Cache

/// What the admin API needs from the cache: `CacheStore` conforms, and tests use fakes.
public protocol CacheAdministration: Sendable {
    func stats() -> [String: CacheStats]
    func purgeAll()
    @discardableResult func purge(namespace: String) -> Bool
    /// Purges here and, with a shared cache, in it and in every replica (`CacheStore`).
    func purgeEverywhere(namespace: String) async -> SharedPurgeOutcome?
    func purgeAllEverywhere() async -> SharedPurgeOutcome
}

extension CacheAdministration {
    /// Without a shared layer, purging everywhere is purging here.
    public func purgeEverywhere(namespace: String) async -> SharedPurgeOutcome? {
        purge(namespace: namespace) ? .notConfigured : nil
    }

    public func purgeAllEverywhere() async -> SharedPurgeOutcome {
        purgeAll()
        return .notConfigured
    }
}

extension CacheStore: CacheAdministration {}
