/// The connections of one event loop that could be closed to make room at the
/// connection limit, oldest first: a doubly linked list threaded through an array of nodes.
///
/// Every operation is O(1) and allocation-free once the node array has grown to the queue's
/// peak: `append` takes a node from the free list (or the end of the array) and links it at
/// the tail, `remove` unlinks a node by its handle (the element keeps its handle while it is
/// listed), `moveToTail` relinks one at the tail, `oldest` reads the head. A keep-alive
/// connection is moved to the tail each time it waits again after a response, so entries
/// are in the order their connections last began to wait, on the one serial queue that owns
/// them. `since` (when the connection began to wait: its last flush, or its accept) is
/// kept non-decreasing from head to tail by clamping it to the tail's: a fresh connection is
/// stamped on the accept queue a few microseconds before its owner lists it, and the head's
/// `since` must stay the list's minimum because other queues compare it.
///
/// Pure value type, no clock, no sockets: `ReclaimableListTests` drive it directly. Its
/// owner (a `ConnectionLoop`) confines it to one event loop.
struct ReclaimableList<Element> {
    /// A listed element's position; valid until that element is removed.
    typealias Handle = Int32

    private struct Node {
        var element: Element?
        var since: UInt64
        var previous: Handle
        var next: Handle
    }

    private static var none: Handle { -1 }

    private var nodes: [Node] = []
    private var head: Handle = none
    private var tail: Handle = none
    /// Unused nodes, linked through `next`.
    private var free: Handle = none
    private(set) var count = 0

    init() {}

    var isEmpty: Bool { count == 0 }

    /// Lists `element` as the newest entry, reclaimable since `since`; returns its handle.
    mutating func append(_ element: Element, since stamped: UInt64) -> Handle {
        let since = tail == Self.none ? stamped : max(stamped, nodes[Int(tail)].since)
        let handle: Handle
        if free != Self.none {
            handle = free
            free = nodes[Int(handle)].next
            nodes[Int(handle)] = Node(element: element, since: since, previous: tail, next: Self.none)
        } else {
            handle = Handle(truncatingIfNeeded: nodes.count)
            nodes.append(Node(element: element, since: since, previous: tail, next: Self.none))
        }
        if tail != Self.none {
            nodes[Int(tail)].next = handle
        } else {
            head = handle
        }
        tail = handle
        count += 1
        return handle
    }

    /// Unlists the element at `handle` (which must be listed) and returns it.
    @discardableResult
    mutating func remove(_ handle: Handle) -> Element? {
        let index = Int(handle)
        guard index >= 0, index < nodes.count, let element = nodes[index].element else { return nil }
        let previous = nodes[index].previous
        let next = nodes[index].next
        if previous != Self.none { nodes[Int(previous)].next = next } else { head = next }
        if next != Self.none { nodes[Int(next)].previous = previous } else { tail = previous }
        nodes[index].element = nil
        nodes[index].previous = Self.none
        nodes[index].next = free
        free = handle
        count -= 1
        return element
    }

    /// Moves the listed entry at `handle` to the tail, now reclaimable since `since` (its
    /// connection has served requests since it was listed and waits again). Same handle.
    mutating func moveToTail(_ handle: Handle, since stamped: UInt64) {
        let index = Int(handle)
        guard index >= 0, index < nodes.count else { return }
        let (head, tail) = (self.head, self.tail)
        // One uniqueness check for the whole relink (it runs once per keep-alive request);
        // the closure returns the new head when the node was relinked, nil otherwise.
        let relinked: Handle? = nodes.withUnsafeMutableBufferPointer { nodes in
            guard nodes[index].element != nil else { return nil }
            let previous = nodes[index].previous
            guard handle != tail else {
                nodes[index].since = previous == Self.none ? stamped : max(stamped, nodes[Int(previous)].since)
                return nil
            }
            let next = nodes[index].next
            if previous != Self.none { nodes[Int(previous)].next = next }
            nodes[Int(next)].previous = previous // next exists: this is not the tail
            nodes[Int(tail)].next = handle
            nodes[index].previous = tail
            nodes[index].next = Self.none
            nodes[index].since = max(stamped, nodes[Int(tail)].since)
            return previous == Self.none ? next : head
        }
        if let relinked {
            self.head = relinked
            self.tail = handle
        }
    }

    /// The handle of the entry listed the longest, or -1 when empty.
    var oldestHandle: Handle { head }

    /// The entry listed the longest, if any.
    var oldest: (handle: Handle, element: Element, since: UInt64)? {
        guard head != Self.none, let element = nodes[Int(head)].element else { return nil }
        return (head, element, nodes[Int(head)].since)
    }

    /// When the oldest entry became reclaimable; `UInt64.max` when the list is empty.
    var oldestSince: UInt64 {
        head == Self.none ? .max : nodes[Int(head)].since
    }

    /// Every listed element, oldest first (tests and diagnostics; O(n)).
    var elementsOldestFirst: [Element] {
        var result: [Element] = []
        var cursor = head
        while cursor != Self.none {
            if let element = nodes[Int(cursor)].element { result.append(element) }
            cursor = nodes[Int(cursor)].next
        }
        return result
    }
}
