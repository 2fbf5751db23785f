import Testing
import TestSupport
@testable import HTTP1

@Suite struct ReclaimableListTests {
    @Test func emptyListHasNoOldest() {
        let list = ReclaimableList<Int>()
        #expect(list.isEmpty)
        #expect(list.oldest == nil)
        #expect(list.oldestSince == .max)
    }

    @Test func oldestIsTheFirstAppendedStillListed() {
        var list = ReclaimableList<String>()
        let a = list.append("a", since: 10)
        let b = list.append("b", since: 20)
        let c = list.append("c", since: 30)
        #expect(list.count == 3)
        #expect(list.oldest?.element == "a")
        #expect(list.oldestSince == 10)
        #expect(list.remove(b) == "b") // from the middle
        #expect(list.elementsOldestFirst == ["a", "c"])
        #expect(list.remove(a) == "a") // the head
        #expect(list.oldest?.element == "c")
        #expect(list.oldestSince == 30)
        #expect(list.remove(c) == "c") // the last one
        #expect(list.isEmpty)
        #expect(list.oldestSince == .max)
    }

    @Test func removedHandlesAreReusedAndRemovingTwiceIsHarmless() {
        var list = ReclaimableList<Int>()
        let first = list.append(1, since: 1)
        _ = list.append(2, since: 2)
        #expect(list.remove(first) == 1)
        #expect(list.remove(first) == nil)
        #expect(list.remove(99) == nil)
        #expect(list.remove(-1) == nil)
        let reused = list.append(3, since: 3)
        #expect(reused == first)
        #expect(list.elementsOldestFirst == [2, 3])
    }

    @Test func sinceNeverGoesBackwardsFromHeadToTail() {
        var list = ReclaimableList<Int>()
        _ = list.append(1, since: 100)
        let late = list.append(2, since: 90) // stamped earlier on another thread, listed later
        #expect(list.oldestSince == 100)
        _ = list.remove(list.oldest!.handle)
        #expect(list.oldest?.handle == late)
        #expect(list.oldestSince == 100) // clamped: never older than an entry listed before it
    }

    @Test func movingToTheTailReordersAndRestamps() {
        var list = ReclaimableList<String>()
        let a = list.append("a", since: 10)
        let b = list.append("b", since: 20)
        let c = list.append("c", since: 30)
        list.moveToTail(a, since: 40) // the head
        #expect(list.elementsOldestFirst == ["b", "c", "a"])
        #expect(list.oldestSince == 20)
        list.moveToTail(c, since: 50) // the middle
        #expect(list.elementsOldestFirst == ["b", "a", "c"])
        list.moveToTail(c, since: 60) // already the tail: restamped only
        #expect(list.elementsOldestFirst == ["b", "a", "c"])
        list.moveToTail(b, since: 5) // stamped early: clamped to the tail's time
        #expect(list.elementsOldestFirst == ["a", "c", "b"])
        #expect(list.oldestSince == 40)
        _ = list.remove(a)
        _ = list.remove(c)
        list.moveToTail(b, since: 70) // alone
        #expect(list.oldest?.handle == b)
        #expect(list.oldestSince == 70)
        list.moveToTail(a, since: 80) // not listed: nothing happens
        #expect(list.count == 1)
    }

    /// Random appends, moves and removals against a plain array kept in the same order.
    @Test func matchesAReferenceModel() {
        var rng = SplitMix64(seed: 17)
        var list = ReclaimableList<Int>()
        var model: [(handle: Int32, value: Int)] = []
        var clock: UInt64 = 0
        for value in 0..<20_000 {
            clock += rng.next() % 3
            let dice = rng.next() % 6
            if model.isEmpty || dice < 3 {
                model.append((list.append(value, since: clock), value))
            } else if dice == 3 {
                let index = Int(rng.next() % UInt64(model.count))
                list.moveToTail(model[index].handle, since: clock)
                model.append(model.remove(at: index))
            } else {
                let index = Int(rng.next() % UInt64(model.count))
                #expect(list.remove(model[index].handle) == model[index].value)
                model.remove(at: index)
            }
            #expect(list.count == model.count)
            #expect(list.oldest?.element == model.first?.value)
            #expect(list.oldestSince <= clock || model.isEmpty)
        }
        #expect(list.elementsOldestFirst == model.map(\.value))
    }
}
