import Dispatch

/// A monotonic deadline for test waits. `pause` naps briefly with `Task.sleep` (never blocking a
/// thread of the cooperative pool) or throws once the deadline has passed.
public struct TestDeadline: Sendable {
    /// The deadline, in `DispatchTime` uptime nanoseconds.
    public let end: UInt64

    /// A deadline `seconds` from now.
    public init(seconds: Double) { end = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9) }

    /// True once the deadline is reached.
    public var passed: Bool { DispatchTime.now().uptimeNanoseconds >= end }

    /// Sleeps `nap` nanoseconds, then doubles it (up to 8 ms), so many idle waiters stay cheap.
    /// Throws `RawHTTPClient.Failure` "`what` timed out" when the deadline has passed.
    public func pause(_ what: String, nap: inout UInt64) async throws {
        guard !passed else { throw RawHTTPClient.Failure.timedOut(what) }
        try await Task.sleep(nanoseconds: nap)
        nap = min(nap * 2, 8_000_000)
    }
}
