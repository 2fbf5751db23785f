import Dispatch
import Transport

/// At `maxConnections`: making room for a newcomer by closing the connection that has waited
/// for a request the longest (idle keep-alive or silent since accept), on the queue that owns
/// it. The full design, with its races, is in docs/server.md ("At the connection limit").
extension ServerCore {
    /// Reserves one reclaim on the queue whose oldest reclaimable connection has waited the
    /// longest, among the queues that have one not yet reserved. O(number of queues), no
    /// lock; nil when no queue has anything to offer (or the server is draining).
    func reserveReclaim() -> ConnectionQueue? {
        guard !isDraining else { return nil }
        // A lost race (another reservation took the last entry first) rescans; each rescan
        // follows another thread's success, so this ends.
        for _ in 0...queues.count {
            var best: ConnectionQueue?
            var bestSince = UInt64.max
            for queue in queues where queue.reclaimables.available > 0 {
                let since = queue.reclaimables.oldestWaitingSince
                if best == nil || since < bestSince {
                    best = queue
                    bestSince = since
                }
            }
            guard let best else { return nil }
            if best.reclaimables.tryReserve() { return best }
        }
        return nil
    }

    /// Runs on `queue` (which holds a reservation for `connection`): closes that queue's oldest
    /// reclaimable connection and starts the newcomer. If the reserved entries all turned
    /// busy meanwhile, another queue is tried (each at most once more in all); when nothing
    /// can be freed the newcomer is refused with the 503, exactly as without reclaiming.
    func makeRoom(for connection: Connection, on queue: ConnectionQueue, attempt: Int) {
        switch queue.reclaimables.serveReservation() {
        case let .reclaimed(state):
            switch state {
            case .idle: reclaimedIdleCount.add(1, ordering: .relaxed)
            case .silent: reclaimedSilentCount.add(1, ordering: .relaxed)
            }
            warnReclaiming(state)
            onOwner(of: connection, from: queue) { connection.start() }
        case .freed:
            onOwner(of: connection, from: queue) { connection.start() }
        case .nothingFreed:
            if attempt <= queues.count, let next = reserveReclaim() {
                next.queue.async { self.makeRoom(for: connection, on: next, attempt: attempt + 1) }
            } else {
                onOwner(of: connection, from: queue) { self.refuse(connection) }
            }
        }
    }

    /// The newcomer was admitted ahead of a reclaim that freed nothing: it becomes a refused
    /// connection (503, lingering close), or is closed at once past `maxRejecting`. On the
    /// newcomer's owner queue. Shutdown may have closed it meanwhile (its slot went with it).
    private func refuse(_ connection: Connection) {
        guard !connection.isClosed else { return }
        openCount.subtract(1, ordering: .relaxed)
        rejectedCount.add(1, ordering: .relaxed)
        rejectingCount.add(1, ordering: .relaxed)
        connection.isRejected = true
        if rejectingCount.load(ordering: .relaxed) > ServerCore.maxRejecting {
            connection.forceClose()
        } else {
            connection.start()
        }
    }

    /// Runs `work` on the newcomer's owner queue: at once when `current` (the queue this runs
    /// on) is that queue — the usual case, the reclaim happened where the newcomer lives.
    private func onOwner(of connection: Connection, from current: ConnectionQueue,
                         _ work: @escaping @Sendable () -> Void) {
        if current === connection.owner {
            work()
        } else {
            connection.owner.queue.async(execute: work)
        }
    }

    private func warnReclaiming(_ state: ConnectionStateMachine.Reclaimable) {
        guard let report = reclaimWarning.withLock({ $0.record(state, now: Connection.now()) }) else { return }
        log("at the connection limit (maxConnections \(configuration.maxConnections)): reusing connections; "
            + "closed \(report.idle) idle keep-alive and \(report.silent) silent connection(s) to serve new clients "
            + "(at most one such line per 10 s)")
    }
}
