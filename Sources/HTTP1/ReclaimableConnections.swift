import Synchronization

/// One event loop's reclaimable connections (see `ReclaimableList`), plus the two
/// figures the accept path reads to choose a loop to reclaim from, and that loop's
/// outstanding reservations.
///
/// Split of work (the design is in docs/server.md, "At the connection limit"):
/// - the owner loop lists a connection when it begins to wait for a request (accepted, or
///   its response flushed and nothing more buffered) — appended the first time, moved to the
///   tail afterwards — and unlists it when it closes. All O(1), no lock. A connection that
///   becomes busy is *not* unlisted then (that would be a second list operation per request);
///   its entry just goes stale and the reclaim path drops it when it reaches it. After a
///   change the owner publishes `listed` and the head's `since` with relaxed stores, and only
///   those that changed;
/// - the accepting loop, only when the server is at `maxConnections`, reserves one entry with a
///   compare-and-swap on `reserved` (it never touches the list and never waits for the owner);
/// - the owner serves the reservation on its own loop (`serveReservation`): from the head, it
///   unlists busy entries and closes the first reclaimable one — among waiting connections the
///   list is in the order they began to wait, so that is the one that has waited longest.
///
/// Each busy entry the reclaim path drops was paid for by the event that listed it, so the
/// work is O(1) amortized per event.
///
/// `listed − reserved` is an upper bound on how many newcomers this loop can make room for
/// (entries may be busy by now); the caller learns when nothing was freed and tries elsewhere.
/// The list lives behind a pointer allocated once: it is confined to the owner loop, and this
/// spares the request path the dynamic exclusivity checks of a class's stored property.
final class ReclaimableConnections: @unchecked Sendable {
    typealias Handle = ReclaimableList<Unmanaged<Connection>>.Handle

    /// The owner loop's list; touched only there.
    private let list: UnsafeMutablePointer<ReclaimableList<Unmanaged<Connection>>>
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

    init() {
        list = .allocate(capacity: 1)
        list.initialize(to: ReclaimableList())
    }

    deinit {
        list.deinitialize(count: 1)
        list.deallocate()
    }

    // MARK: - Owner loop

    /// Lists `connection` as the newest waiting entry (owner loop). The list keeps an
    /// unretained reference: the connection unlists itself before it can be released (in
    /// `Connection.closeNow`).
    func list(_ connection: Connection, since: UInt64) -> Handle {
        let handle = list.pointee.append(.passUnretained(connection), since: since)
        listed.store(list.pointee.count, ordering: .relaxed)
        if list.pointee.count == 1 { oldestSince.store(since, ordering: .relaxed) }
        return handle
    }

    /// The listed connection at `handle` waits again since `since` (owner loop): it becomes
    /// the newest entry. This is the one list operation of a keep-alive request.
    @inline(__always)
    func waitsAgain(_ handle: Handle, since: UInt64) {
        let wasOldest = list.pointee.oldestHandle == handle
        list.pointee.moveToTail(handle, since: since)
        if wasOldest { oldestSince.store(list.pointee.oldestSince, ordering: .relaxed) }
    }

    /// Unlists the connection at `handle` (owner loop).
    func unlist(_ handle: Handle) {
        list.pointee.remove(handle)
        listed.store(list.pointee.count, ordering: .relaxed)
        oldestSince.store(list.pointee.oldestSince, ordering: .relaxed)
    }

    /// Serves one reservation (owner loop): walks the list from its head until a connection
    /// frees its slot (`Connection.reclaim()`); every entry it passes leaves the head (unlisted
    /// as busy, or moved to the tail if it served a request meanwhile), so each step moves on,
    /// and at most the entries listed at the start are visited (twice over, for safety).
    func serveReservation() -> Outcome {
        reserved.subtract(1, ordering: .relaxed)
        var attempts = 2 * list.pointee.count
        while attempts > 0, let oldest = list.pointee.oldest {
            attempts -= 1
            switch oldest.element.takeUnretainedValue().reclaim() {
            case let .reclaimed(state): return .reclaimed(state)
            case .closedByPeer: return .freed
            case .busy, .requeued: continue
            }
        }
        return .nothingFreed
    }

    /// Listed connections that are reclaimable right now (owner loop; O(n), for tests).
    func countReclaimableNow() -> Int {
        list.pointee.elementsOldestFirst.reduce(0) { $0 + ($1.takeUnretainedValue().isReclaimable ? 1 : 0) }
    }

    // MARK: - Any thread

    /// Reserves one reclaim on this loop if it has a listed connection not yet reserved.
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

    /// When this loop's oldest listed connection began to wait (a snapshot).
    var oldestWaitingSince: UInt64 { oldestSince.load(ordering: .relaxed) }
}
