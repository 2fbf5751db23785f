import Foundation

/// Wall-clock Unix seconds, injectable so tests can pin "fetch time" for providers whose
/// upstream sends no timestamp (coinbase, coingecko).
public typealias WallClock = @Sendable () -> Int64

public enum WallClocks {
    /// The system clock, truncated to whole seconds.
    public static let system: WallClock = { Int64(Date().timeIntervalSince1970.rounded(.down)) }
}
