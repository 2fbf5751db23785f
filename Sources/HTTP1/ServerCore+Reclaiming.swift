import Transport

/// At `maxConnections`: making room for a newcomer by closing the connection that has waited
/// for a request the longest (idle keep-alive or silent since accept), on the loop that owns
/// it. The full design, with its races, is in docs/server.md ("At the connection limit").
extension ServerCore {
    /// Reserves one reclaim on the loop whose oldest reclaimable connection has waited the
    /// longest, among the loops that have one not yet reserved. O(number of loops), no
    /// lock; nil when no loop has anything to offer (or the server is draining).
    func reserveReclaim() -> ConnectionLoop? {
        guard !isDraining else { return nil }
        // A lost race (another reservation took the last entry first) rescans; each rescan
        // follows another thread's success, so this ends.
        for _ in 0...loops.count {
            var best: ConnectionLoop?
            var bestSince = UInt64.max
            for owner in loops where owner.reclaimables.available > 0 {
                let since = owner.reclaimables.oldestWaitingSince
                if best == nil || since < bestSince {
                    best = owner
                    bestSince = since
                }
            }
            guard let best else { return nil }
            if best.reclaimables.tryReserve() { return best }
        }
        return nil
    }

    /// Runs on `owner`'s loop (which holds a reservation for `connection`): closes that loop's
    /// oldest reclaimable connection and starts the newcomer. If the reserved entries all
    /// turned busy meanwhile, another loop is tried (each at most once more in all); when
    /// nothing can be freed the newcomer is refused with the 503, exactly as without reclaiming.
    func makeRoom(for connection: Connection, on owner: ConnectionLoop, attempt: Int) {
        switch owner.reclaimables.serveReservation() {
        case let .reclaimed(state):
            switch state {
            case .idle: reclaimedIdleCount.add(1, ordering: .relaxed)
            case .silent: reclaimedSilentCount.add(1, ordering: .relaxed)
            }
            warnReclaiming(state)
            onOwner(of: connection, from: owner) { connection.start() }
        case .freed:
            onOwner(of: connection, from: owner) { connection.start() }
        case .nothingFreed:
            if attempt <= loops.count, let next = reserveReclaim() {
                next.loop.execute { self.makeRoom(for: connection, on: next, attempt: attempt + 1) }
            } else {
                onOwner(of: connection, from: owner) { self.refuse(connection) }
            }
        }
    }

    /// The newcomer was admitted ahead of a reclaim that freed nothing: it becomes a refused
    /// connection (503, lingering close), or is closed at once past `maxRejecting`. On the
    /// newcomer's owner loop. Shutdown may have closed it meanwhile (its slot went with it).
    private func refuse(_ connection: Connection) {
        guard !connection.isClosed else { return }
        openCount.subtract(1, ordering: .relaxed)
        connection.owner.openConnections.subtract(1, ordering: .relaxed)
        rejectedCount.add(1, ordering: .relaxed)
        rejectingCount.add(1, ordering: .relaxed)
        connection.isRejected = true
        if rejectingCount.load(ordering: .relaxed) > ServerCore.maxRejecting {
            connection.forceClose()
        } else {
            connection.start()
        }
    }

    /// Runs `work` on the newcomer's owner loop: at once when `current` (the loop this runs
    /// on) is that loop — the usual case, the reclaim happened where the newcomer lives.
    private func onOwner(of connection: Connection, from current: ConnectionLoop,
                         _ work: @escaping @Sendable () -> Void) {
        if current === connection.owner {
            work()
        } else {
            connection.owner.loop.execute(work)
        }
    }

    private func warnReclaiming(_ state: ConnectionStateMachine.Reclaimable) {
        guard let report = reclaimWarning.withLock({ $0.record(state, now: Connection.now()) }) else { return }
        log("at the connection limit (maxConnections \(configuration.maxConnections)): reusing connections; "
            + "closed \(report.idle) idle keep-alive and \(report.silent) silent connection(s) to serve new clients "
            + "(at most one such line per 10 s)")
    }
}
