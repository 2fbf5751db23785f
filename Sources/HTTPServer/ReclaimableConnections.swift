import Synchronization

/// One connection queue's reclaimable connections (see `ReclaimableList`), plus the two
/// figures the accept path reads to choose a queue to reclaim from, and that queue's
/// outstanding reservations.
///
/// Split of work (the design is in docs/server.md, "At the connection limit"):
/// - the owner queue lists and unlists its connections as `ConnectionStateMachine.reclaimable`
///   changes (O(1), no lock; it then publishes `listed` and `oldestSince` with two relaxed
///   stores — no read-modify-write on the request path);
/// - the accept queue, only when the server is at `maxConnections`, reserves one entry with a
///   compare-and-swap on `reserved` (it never touches the list and never waits for the owner);
/// - the owner serves the reservation on its own queue (`serveReservation`): it closes its
///   oldest listed connection that is still reclaimable there and then.
///
/// `listed − reserved` is how many newcomers this queue can still make room for. It is a
/// snapshot: a reserved connection may take up a request before the owner gets to it, and
/// the owner then tries the next oldest; the caller learns when nothing was freed.
final class ReclaimableConnections: @unchecked Sendable {
    /// The owner queue's list; touched only there.
    private var list = ReclaimableList<Unmanaged<Connection>>()
    /// `list.count`, published for the accept path.
    private let listed = Atomic<Int>(0)
    /// The head's `since` (`UInt64.max` when empty), published for the accept path.
    private let oldestSince = Atomic<UInt64>(.max)
    /// Reservations taken and not yet served.
    private let reserved = Atomic<Int>(0)

    /// What serving one reservation achieved.
    enum Outcome: Equatable {
        /// A connection in this state was closed to make room.
        case reclaimed(ConnectionStateMachine.Reclaimable)
        /// The picked connection had already been closed by its peer: its slot is free anyway.
        case freed
        /// Every listed connection turned out to be busy (or the list was empty).
        case nothingFreed
    }

    // MARK: - Owner queue

    /// Lists `connection` (owner queue). The list keeps an unretained reference: the
    /// connection unlists itself before it can be released (in `Connection.closeNow`).
    func list(_ connection: Connection, since: UInt64) -> ReclaimableList<Unmanaged<Connection>>.Handle {
        let handle = list.append(.passUnretained(connection), since: since)
        publish()
        return handle
    }

    /// Unlists the connection at `handle` (owner queue).
    func unlist(_ handle: ReclaimableList<Unmanaged<Connection>>.Handle) {
        list.remove(handle)
        publish()
    }

    @inline(__always)
    private func publish() {
        listed.store(list.count, ordering: .relaxed)
        oldestSince.store(list.oldestSince, ordering: .relaxed)
    }

    /// Serves one reservation (owner queue): tries the listed connections oldest first until
    /// one frees its slot, giving each a last chance to show it is busy (input already in
    /// its socket). A connection that turns out busy leaves the list by itself, and one that
    /// answers a request at once and waits again is listed anew at the tail, so every
    /// attempt moves on; at most the entries listed at the start are tried.
    func serveReservation() -> Outcome {
        reserved.subtract(1, ordering: .relaxed)
        var attempts = list.count
        while attempts > 0, let oldest = list.oldest {
            attempts -= 1
            switch oldest.element.takeUnretainedValue().reclaim() {
            case let .reclaimed(state): return .reclaimed(state)
            case .closedByPeer: return .freed
            case .kept: continue
            }
        }
        return .nothingFreed
    }

    // MARK: - Any thread

    /// Reserves one reclaim on this queue if it has a listed connection not yet reserved.
    func tryReserve() -> Bool {
        var taken = reserved.load(ordering: .relaxed)
        while listed.load(ordering: .relaxed) - taken > 0 {
            let (exchanged, original) = reserved.compareExchange(
                expected: taken, desired: taken + 1, ordering: .relaxed)
            if exchanged { return true }
            taken = original
        }
        return false
    }

    /// Listed connections not yet reserved (a snapshot; may be negative for a moment).
    var available: Int { listed.load(ordering: .relaxed) - reserved.load(ordering: .relaxed) }

    /// When this queue's oldest listed connection began to wait (a snapshot).
    var oldestWaitingSince: UInt64 { oldestSince.load(ordering: .relaxed) }
}
