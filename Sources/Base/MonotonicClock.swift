/// The one time source a component reads and waits on: monotonic seconds from an arbitrary
/// origin, and a wait until a reading. Injected (never read from the system inside the
/// component), so a test drives every decision, deadline and wait with a `ManualClock` and a
/// busy machine cannot move them; production passes `SystemClock`.
///
/// A deadline is a reading of one clock: components that pass deadlines to each other share
/// that clock (the steward's clock is the provider chain's, the retry loop's and the gate's).
public protocol MonotonicClock: Sendable {
    /// Seconds since the clock's origin; never goes backwards.
    func now() -> Double
    /// Returns once `now() >= deadline` (at once when it already is); throws
    /// `CancellationError` when the calling task is cancelled first.
    func sleep(until deadline: Double) async throws
}

extension MonotonicClock {
    /// Waits `seconds` from now on this clock (nothing for zero or less, but cancellation).
    public func sleep(seconds: Double) async throws {
        try await self.sleep(until: now() + max(0, seconds))
    }
}
