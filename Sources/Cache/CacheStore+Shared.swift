/// What a store with a shared layer does for the whole cluster: purges that reach every
/// replica, and the subscription that receives them.
extension CacheStore {
    /// Subscribes to the shared layer's invalidations (other replicas' purges), once at start.
    /// Returns when the subscription is confirmed, or at once after failing when the store is
    /// unreachable (the subscription stays registered and takes effect when it is back, followed
    /// by a gap). Does nothing without a shared layer.
    ///
    /// A message names a namespace (or `*`: all): this replica drops that namespace from L1.
    /// A gap (messages may have been lost while disconnected, and whenever the subscription
    /// (re)starts) runs `resynchronizeShared()`.
    public func startSharedLayer() async {
        guard let shared else { return }
        do {
            try await shared.backend.subscribe(to: shared.invalidateChannel, onMessage: { [weak self] message in
                guard let self else { return }
                if message == SharedCacheLayer.everyNamespace {
                    self.purgeAll()
                } else if let name = String(validating: message, as: UTF8.self) {
                    self.purge(namespace: name)
                }
            }, onGap: { [weak self] in
                self?.resynchronizeShared()
            })
            shared.noteSuccess()
        } catch {
            shared.noteFailure()
        }
    }

    /// After invalidations may have been missed: every L1 entry of a shared namespace stops
    /// being fresh now but keeps its stale window.
    ///
    /// Dropping L1 instead would be exact but would also throw away the stale values that keep
    /// answers flowing while an upstream is down (stale-if-error), on every Redis reconnect.
    /// Expiring keeps them: the next read of a key serves its stale value (when it has a stale
    /// window) and refreshes it through L2 — adopting the shared copy when the key was not
    /// purged (one Redis read, no upstream call), loading it again when it was. A key without a
    /// stale window simply misses and reads L2. A purged value can thus be served, marked
    /// `STALE`, for the length of one refresh after a gap; never fresh.
    public func resynchronizeShared() {
        let now = clock.now()
        state.withLock { state in
            for id in state.sharedTables { state.tables[Int(id)].expireAll(now: now) }
        }
        shared?.count { $0.gaps += 1 }
    }

    /// Purges `namespace` in every replica: here at once, then its values in the shared layer
    /// and, through the invalidate channel, every replica's L1 — even when this replica never
    /// used the namespace (others may have). Without a shared layer it is `purge(namespace:)`,
    /// and nil means no namespace has that name.
    public func purgeEverywhere(namespace: String) async -> SharedPurgeOutcome? {
        let known = purge(namespace: namespace)
        guard shared != nil else { return known ? .notConfigured : nil }
        return await purgeShared(namespace: namespace)
    }

    /// `purgeAll()` in every replica (see `purgeEverywhere(namespace:)`).
    @discardableResult
    public func purgeAllEverywhere() async -> SharedPurgeOutcome {
        purgeAll()
        return await purgeShared(namespace: nil)
    }

    private func purgeShared(namespace: String?) async -> SharedPurgeOutcome {
        guard let shared else { return .notConfigured }
        do {
            return .purged(deletedKeys: try await shared.purge(namespace: namespace))
        } catch {
            return .unavailable(error.reason)
        }
    }
}

/// How far a purge reached beyond this replica.
public enum SharedPurgeOutcome: Sendable, Equatable {
    /// No shared layer: this process's memory was all there was.
    case notConfigured
    /// The shared layer's keys were deleted and every replica was told.
    case purged(deletedKeys: Int)
    /// The shared store could not be reached: only this replica's L1 was purged; the others keep
    /// their copies and the shared values live until their TTL.
    case unavailable(String)
}
