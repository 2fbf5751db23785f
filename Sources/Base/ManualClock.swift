import Synchronization

/// A `MonotonicClock` that only moves when told to: tests of expiry, budgets, cooldowns,
/// deadlines and backoff are exact and never wait for real time. A `sleep` on it returns when
/// `advance`/`set` reach its deadline (or throws when its task is cancelled), so a test
/// advances the clock instead of sleeping, and can see that a component is waiting
/// (`sleepers`). Shared freely across tasks. (In a production module, like the protocol, so
/// every module's tests and tools can hand one to any component.)
public final class ManualClock: MonotonicClock {
    private struct Sleeper {
        var deadline: Double
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var seconds: Double
        var sleepers: [UInt64: Sleeper] = [:]
        var lastID: UInt64 = 0
    }

    private let state: Mutex<State>

    public init(start: Double = 1_000) {
        state = Mutex(State(seconds: start))
    }

    public func now() -> Double { state.withLock { $0.seconds } }

    /// Tasks waiting in `sleep` now: a test waits for a component to be waiting before it moves
    /// the clock.
    public var sleepers: Int { state.withLock { $0.sleepers.count } }

    /// Moves time forward by `delta` seconds, waking every sleep that is due.
    public func advance(by delta: Double) {
        move { $0 += delta }
    }

    /// Jumps to an absolute reading (tests use it to land exactly on a boundary), waking every
    /// sleep that is due.
    public func set(_ value: Double) {
        move { $0 = value }
    }

    public func sleep(until deadline: Double) async throws {
        let id = state.withLock { state -> UInt64 in
            state.lastID &+= 1
            return state.lastID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let immediate: Result<Void, CancellationError>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if state.seconds >= deadline { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let immediate { continuation.resume(with: immediate) }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }

    private func move(_ change: (inout Double) -> Void) {
        let due = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            change(&state.seconds)
            let now = state.seconds
            let ids = state.sleepers.filter { $0.value.deadline <= now }.map(\.key)
            return ids.compactMap { state.sleepers.removeValue(forKey: $0)?.continuation }
        }
        for continuation in due { continuation.resume() }
    }
}
