import Dispatch
import Glibc

/// The process signals a server reacts to, delivered through Dispatch rather than a C handler, so
/// that the callback may do anything (a C signal handler may only call async-signal-safe functions).
public enum ProcessSignals {
    /// SIGTERM: what `docker stop`, systemd and Kubernetes send.
    public static let terminate = SIGTERM
    /// SIGINT: Ctrl-C.
    public static let interrupt = SIGINT

    /// Calls `onSignal` on `.global()` for each of `signals`. Their default actions are disabled
    /// first (`SIG_IGN`), as Dispatch signal sources require. Keep the returned sources alive.
    public static func observe(_ signals: [Int32], onSignal: @escaping @Sendable (Int32) -> Void) -> [DispatchSourceSignal] {
        signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { onSignal(number) }
            source.resume()
            return source
        }
    }
}
