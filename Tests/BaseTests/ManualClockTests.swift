import Base
import Testing
import TestSupport

/// The manual clock every component's tests drive: sleeps end exactly when it is moved past
/// them, never by real time.
@Suite(.timeLimit(.minutes(1))) struct ManualClockTests {
    @Test func aSleepEndsWhenTheClockReachesItsDeadline() async throws {
        let clock = ManualClock(start: 10)
        let sleeper = Task { try await clock.sleep(until: 15) }
        #expect(await waitUntil { clock.sleepers == 1 })
        clock.advance(by: 4.9)
        #expect(clock.sleepers == 1, "not due yet")
        clock.set(15)
        try await sleeper.value
        #expect(clock.sleepers == 0)
        #expect(clock.now() == 15)
    }

    @Test func aSleepThatIsDueReturnsAtOnce() async throws {
        let clock = ManualClock(start: 10)
        try await clock.sleep(until: 10)
        try await clock.sleep(seconds: 0)
        try await clock.sleep(seconds: -3)
        #expect(clock.sleepers == 0)
    }

    @Test func aCancelledSleepThrowsAndLeavesNothingBehind() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(seconds: 60) }
        #expect(await waitUntil { clock.sleepers == 1 })
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleepers == 0)
        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(seconds: 60)
        }
        await #expect(throws: CancellationError.self) { try await cancelledFirst.value }
        #expect(clock.sleepers == 0)
    }

    @Test func oneMoveWakesEverySleepThatIsDueAndNoOther() async throws {
        let clock = ManualClock(start: 0)
        let early = Task { try await clock.sleep(until: 1) }
        let alsoEarly = Task { try await clock.sleep(until: 2) }
        let late = Task { try await clock.sleep(until: 3) }
        #expect(await waitUntil { clock.sleepers == 3 })
        clock.advance(by: 2)
        try await early.value
        try await alsoEarly.value
        #expect(clock.sleepers == 1)
        late.cancel()
        await #expect(throws: CancellationError.self) { try await late.value }
    }
}
