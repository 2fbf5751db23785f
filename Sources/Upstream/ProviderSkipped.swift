/// The steward did not let a request reach its provider: the provider said stop (cooldown),
/// its breaker is open, or its request budget had no token within the allowed wait. Thrown
/// through the provider's code (which lets client errors propagate) to `ProviderChain`, which
/// falls through to the next provider as it does on a failure.
public struct ProviderSkipped: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why the provider was not asked; the raw value is the `reason` label of
    /// `almanac_upstream_skipped_total`.
    public enum Reason: String, Sendable, Equatable, CaseIterable {
        case cooldown, breaker, budget
    }

    public let provider: String
    public let reason: Reason
    /// Seconds until the provider may be asked again (at least a token, a cooldown's end, a
    /// breaker's probe); never negative. Only the steward's gate makes one, so its memberwise
    /// initialiser stays internal.
    public let availableInSeconds: Double

    public var description: String {
        let why: String
        switch reason {
        case .cooldown: why = "cooling down after the provider asked almanac to stop"
        case .breaker: why = "circuit breaker open after repeated failures"
        case .budget: why = "request budget spent"
        }
        return "\(provider): skipped: \(why) (available again in \(Self.shown(availableInSeconds)) s)"
    }

    static func shown(_ seconds: Double) -> String {
        let tenths = (seconds * 10).rounded(.up)
        guard tenths.isFinite, tenths < 1e9 else { return "many" }
        let whole = Int(tenths)
        return "\(whole / 10).\(whole % 10)"
    }
}
