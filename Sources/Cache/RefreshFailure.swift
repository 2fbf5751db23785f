/// A stale-while-revalidate refresh that failed: the stale value stays and goes on being
/// served until its stale window ends (stale-if-error), so clients see no error, and the
/// owner of the store is told, because an outage hidden by the cache is still an outage.
public struct RefreshFailure: Sendable {
    /// The namespace (`rates`, `books`, `covers`, …).
    public var namespace: String
    /// The key as text (an ISBN-13, a currency pair…).
    public var key: String
    /// Why the load failed, as the loader threw it.
    public var error: any Error

    public init(namespace: String, key: String, error: any Error) {
        self.namespace = namespace
        self.key = key
        self.error = error
    }
}
