/// The plain-data half of an entry: everything a lookup decides on, kept apart from the typed
/// key and value so that deciding hit / stale / miss copies no reference-counted field.
@usableFromInline
struct EntryTimes: Sendable {
    @usableFromInline var loadedAt: Double
    @usableFromInline var expiresAt: Double
    @usableFromInline var staleUntil: Double
    /// A failed refresh is retried by reads no earlier than this.
    @usableFromInline var retryAt: Double
    /// The entry's node in `StoreState.nodes`.
    @usableFromInline var node: Int32

    @inlinable
    init(loadedAt: Double, expiresAt: Double, staleUntil: Double, retryAt: Double, node: Int32) {
        (self.loadedAt, self.expiresAt, self.staleUntil, self.retryAt, self.node) =
            (loadedAt, expiresAt, staleUntil, retryAt, node)
    }

    @usableFromInline static let vacant = EntryTimes(loadedAt: 0, expiresAt: 0, staleUntil: 0, retryAt: 0, node: -1)
}
