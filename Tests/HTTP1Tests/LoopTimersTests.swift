import Testing
@testable import Transport

/// The event loop's timer heap, without a loop or a clock: instants are plain numbers.
@Suite struct LoopTimersTests {
    /// Pops everything due at `now`, in firing order.
    static func fire(_ timers: inout LoopTimers<String>, now: UInt64) -> [String] {
        var fired: [String] = []
        while let due = timers.popDue(now: now) { fired.append(due.payload) }
        return fired
    }

    /// Timers named and armed in the order given; their IDs by name.
    static func armed(_ deadlines: KeyValuePairs<String, UInt64>) -> (LoopTimers<String>, [String: Int]) {
        var timers = LoopTimers<String>()
        var ids: [String: Int] = [:]
        for (name, deadline) in deadlines {
            let id = timers.add(name)
            timers.arm(id, at: deadline)
            ids[name] = id
        }
        return (timers, ids)
    }

    @Test func timersFireInDeadlineOrderAndOnlyWhenDue() {
        var (timers, ids) = Self.armed(["c": 300, "a": 100, "b": 200])
        #expect(timers.nextDeadline() == 100)
        #expect(Self.fire(&timers, now: 99).isEmpty)
        #expect(Self.fire(&timers, now: 250) == ["a", "b"])
        #expect(timers.nextDeadline() == 300)
        #expect(Self.fire(&timers, now: 1_000) == ["c"])
        #expect(timers.nextDeadline() == nil)
        // Fired timers are disarmed, not removed: they fire again once re-armed.
        timers.arm(ids["a", default: -1], at: 2_000)
        #expect(Self.fire(&timers, now: 2_000) == ["a"])
    }

    /// A keep-alive connection moves its deadline later on every request: no heap push, and the
    /// early entry, once it comes up, is queued again at the later instant instead of firing.
    @Test func movingADeadlineLaterPushesNothingAndFiresAtTheLaterInstant() {
        var timers = LoopTimers<String>()
        let t = timers.add("t")
        timers.arm(t, at: 100)
        for request in 1...1_000 { timers.arm(t, at: 100 + UInt64(request)) }
        #expect(timers.queuedEntries == 1)
        #expect(Self.fire(&timers, now: 500).isEmpty)
        #expect(timers.nextDeadline() == 1_100)
        #expect(Self.fire(&timers, now: 1_099).isEmpty)
        #expect(Self.fire(&timers, now: 1_100) == ["t"])
    }

    @Test func movingADeadlineEarlierFiresAtTheEarlierInstantOnce() {
        var timers = LoopTimers<String>()
        let t = timers.add("t")
        timers.arm(t, at: 1_000)
        timers.arm(t, at: 100)
        #expect(timers.nextDeadline() == 100)
        #expect(Self.fire(&timers, now: 100) == ["t"])
        #expect(Self.fire(&timers, now: 5_000).isEmpty) // the superseded entry is stale
    }

    @Test func disarmedAndRemovedTimersDoNotFire() {
        var (timers, ids) = Self.armed(["a": 10, "b": 20, "c": 30])
        let a = ids["a", default: -1], b = ids["b", default: -1]
        timers.disarm(a)
        timers.remove(b)
        #expect(timers.count == 2)
        #expect(Self.fire(&timers, now: 100) == ["c"])
        // A removed timer's ID is reused, and its old entry cannot fire the new payload.
        let d = timers.add("d")
        #expect(d == b)
        #expect(Self.fire(&timers, now: 200).isEmpty)
        timers.arm(a, at: 300)
        #expect(Self.fire(&timers, now: 300) == ["a"])
    }

    /// Stale entries (moved earlier again and again) are dropped in bulk: the heap stays within
    /// a small multiple of the live timers.
    @Test func staleEntriesDoNotAccumulate() {
        var timers = LoopTimers<Int>()
        let ids = (0..<10).map { timers.add($0) }
        for round in 0..<1_000 {
            for id in ids { timers.arm(id, at: UInt64(1_000_000 - round * 10 - id)) }
        }
        #expect(timers.queuedEntries <= 64 + 2 * ids.count)
        var fired: [Int] = []
        while let due = timers.popDue(now: .max) { fired.append(due.payload) }
        #expect(fired == Array((0..<10).reversed()))
    }
}
