/// The timers of one event loop: a min-heap of deadlines with lazy re-arm.
///
/// Each timer is a slot (its payload, the instant it is due, or none while disarmed); the heap
/// holds entries `(at, slot, generation)`. Moving a timer *later* costs O(1): only the slot's
/// `due` changes, and the entry already in the heap fires early, sees the later `due` and is
/// pushed again (once per expiry, not once per change). That is the shape of a keep-alive
/// connection, whose deadline moves later on every request. Moving a timer *earlier* pushes a
/// new entry (O(log n)) and turns the old one stale (its generation no longer matches); stale
/// entries are dropped when they reach the top, and the heap is rebuilt from the live ones
/// when stale entries outnumber them, so its size stays bounded by the number of timers.
///
/// Pure (no clock, no thread): the loop passes `now` in. Confined to its loop.
struct LoopTimers<Payload> {
    /// A timer's identity: its slot. Valid from `add` until `remove`.
    typealias ID = Int

    private struct Slot {
        var payload: Payload?
        /// When the timer is due; nil while disarmed.
        var due: UInt64?
        /// The deadline of the slot's live heap entry; nil when it has none.
        var queuedAt: UInt64?
        /// Bumped whenever the slot's heap entry is superseded (moved earlier, removed).
        var generation: UInt32 = 0
    }

    private struct Entry {
        var at: UInt64
        var slot: Int
        var generation: UInt32
    }

    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    private var heap: [Entry] = []
    /// Heap entries whose slot has a live entry (the others are stale).
    private var liveEntries = 0

    init() {}

    /// Timers added and not removed.
    var count: Int { slots.count - freeSlots.count }

    /// Heap entries, stale ones included (tests: the heap stays bounded).
    var queuedEntries: Int { heap.count }

    /// Adds a disarmed timer that will hand back `payload` when it fires.
    mutating func add(_ payload: Payload) -> ID {
        if let slot = freeSlots.popLast() {
            slots[slot].payload = payload
            return slot
        }
        slots.append(Slot(payload: payload))
        return slots.count - 1
    }

    /// Makes `id` due at `deadline` (replacing any earlier setting). O(1) when its queued entry
    /// is not later than `deadline`; otherwise one heap push.
    mutating func arm(_ id: ID, at deadline: UInt64) {
        guard slots.indices.contains(id), slots[id].payload != nil else { return }
        slots[id].due = deadline
        if let queued = slots[id].queuedAt, queued <= deadline { return }
        supersede(id)
        push(id, at: deadline)
    }

    /// `id` will not fire until armed again. O(1): its entry goes stale lazily.
    mutating func disarm(_ id: ID) {
        guard slots.indices.contains(id) else { return }
        slots[id].due = nil
    }

    /// Removes `id` for good (its payload is released now); the ID may be reused by `add`.
    mutating func remove(_ id: ID) {
        guard slots.indices.contains(id), slots[id].payload != nil else { return }
        supersede(id)
        slots[id].payload = nil
        slots[id].due = nil
        freeSlots.append(id)
    }

    /// The earliest instant a timer may fire (an entry that will only be re-pushed counts:
    /// waking for it is harmless), nil when nothing is queued.
    mutating func nextDeadline() -> UInt64? {
        dropStaleTop()
        return heap.first?.at
    }

    /// The next timer due at `now`, disarmed and ready to fire; nil when none is due. Entries
    /// that come up early (their timer was moved later) are queued again at their `due`.
    mutating func popDue(now: UInt64) -> (id: ID, payload: Payload)? {
        while true {
            dropStaleTop()
            guard let top = heap.first, top.at <= now else { return nil }
            popTop()
            liveEntries -= 1
            slots[top.slot].queuedAt = nil
            guard let due = slots[top.slot].due, let payload = slots[top.slot].payload else { continue }
            if due > now {
                push(top.slot, at: due)
                continue
            }
            slots[top.slot].due = nil
            return (top.slot, payload)
        }
    }

    // MARK: - Heap

    /// Turns the slot's live entry (if any) stale, and compacts when stale entries dominate.
    private mutating func supersede(_ slot: Int) {
        guard slots[slot].queuedAt != nil else { return }
        slots[slot].queuedAt = nil
        slots[slot].generation &+= 1
        liveEntries -= 1
        if heap.count > 64 && heap.count > 2 * liveEntries { compact() }
    }

    private mutating func push(_ slot: Int, at deadline: UInt64) {
        slots[slot].queuedAt = deadline
        liveEntries += 1
        heap.append(Entry(at: deadline, slot: slot, generation: slots[slot].generation))
        siftUp(heap.count - 1)
    }

    private func isStale(_ entry: Entry) -> Bool {
        Self.isStale(entry, in: slots)
    }

    private static func isStale(_ entry: Entry, in slots: [Slot]) -> Bool {
        slots[entry.slot].generation != entry.generation || slots[entry.slot].queuedAt == nil
    }

    private mutating func dropStaleTop() {
        while let top = heap.first, isStale(top) { popTop() }
    }

    private mutating func popTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(0)
    }

    private mutating func compact() {
        let slots = self.slots
        heap.removeAll { Self.isStale($0, in: slots) }
        guard heap.count > 1 else { return }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].at < heap[parent].at else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            let right = left + 1
            let smaller = right < heap.count && heap[right].at < heap[left].at ? right : left
            guard heap[smaller].at < heap[parent].at else { return }
            heap.swapAt(smaller, parent)
            parent = smaller
        }
    }
}
