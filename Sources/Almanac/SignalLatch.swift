import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Turns SIGTERM/SIGINT into an awaitable event. The signals' default actions are replaced
/// by `SIG_IGN` and observed through Dispatch signal sources, so handling runs on a normal
/// queue instead of in an async-signal context. The first signal resumes `wait()`; later
/// ones go to `onRepeat` (an impatient operator pressing Ctrl-C twice).
///
/// `reported` signals (SIGHUP) are only handed to `onReport`: their default action, ending
/// the process, is disabled, so a `kill -HUP` sent out of habit ("reload") is logged and
/// survived.
final class SignalLatch: Sendable {
    private struct State {
        var received: Int32?
        var waiter: CheckedContinuation<Int32, Never>?
    }

    private let state = Mutex(State())
    private let sources: SignalSources

    init(signals: [Int32] = [SIGTERM, SIGINT], reported: [Int32] = [],
         onReport: @escaping @Sendable (Int32) -> Void = { _ in },
         onRepeat: @escaping @Sendable (Int32) -> Void) {
        let queue = DispatchQueue(label: "almanac.signals")
        let all = signals + reported
        sources = SignalSources(list: all.map { sig in
            signal(sig, SIG_IGN)
            return DispatchSource.makeSignalSource(signal: sig, queue: queue)
        })
        for (sig, source) in zip(all, sources.list) {
            if reported.contains(sig) {
                source.setEventHandler { onReport(sig) }
            } else {
                source.setEventHandler { [weak self] in
                    guard let self else { return }
                    if !self.fire(sig) { onRepeat(sig) }
                }
            }
            source.resume()
        }
    }

    /// Returns the first signal received (at once if it already came).
    func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            let ready: Int32? = state.withLock { state in
                if let r = state.received { return r }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Records a signal; false when one was already recorded.
    @discardableResult
    func fire(_ sig: Int32) -> Bool {
        let (first, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Int32, Never>?) in
            guard state.received == nil else { return (false, nil) }
            state.received = sig
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        waiter?.resume(returning: sig)
        return first
    }

    func cancel() {
        sources.list.forEach { $0.cancel() }
    }
}

/// Dispatch sources are thread-safe objects (resume/cancel may be called from any thread);
/// they are only not annotated `Sendable`.
private struct SignalSources: @unchecked Sendable {
    let list: [any DispatchSourceSignal]
}
