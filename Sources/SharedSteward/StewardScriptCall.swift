import Upstream

/// One call of `StewardScript`: the operation, the clock, the provider's rules and the
/// operation's own arguments, as the script's `ARGV` (text; pure, tested without sockets).
///
/// `ARGV` layout: 1 operation (`admit`, `abandon`, `record`, `retry`); 2 the time in seconds,
/// empty for Redis's own `TIME` (production) — `StewardClock.caller` pins it (tests);
/// 3 tokens per second (0: no budget); 4 burst; 5 longest cooldown; 6 failures that open the
/// breaker; 7 retry budget percent; 8 seconds after which a probe is presumed lost; 9 and 10
/// the breaker's first and longest opening; 11 the retry window; 12 the key's TTL in ms; 13 the
/// longest queue wait (`upstream.maxQueueMs`, seconds: bounds the token debt the script
/// accepts from the hash); then by operation: admit 14 longest wait, 15 background (1/0), 16
/// retry (1/0); abandon 14 and 15 the ticket's cooldown and breaker probes (1/0); record 14,
/// 15 the same, 16 the outcome (`stop`, `failure`, `answered`, `cancelled`), 17 `Retry-After`
/// seconds (empty: none); retry 14 the caller's retries in flight, 15 the fewest in flight the
/// percentage may refuse at.
struct StewardScriptCall: Sendable, Equatable {
    enum Operation: Sendable, Equatable {
        case admit(AdmissionRequest)
        case abandon(AdmissionTicket)
        case record(AdmissionTicket, AttemptOutcome)
        /// This process's retries of the provider in flight (`RetryBudget.minRetriesInFlight`).
        case allowsRetry(retriesInFlight: Int)
    }

    var operation: Operation
    /// Seconds to use as "now" instead of Redis's `TIME`; nil in production.
    var pinnedNow: Double?
    var limits: StewardLimits
    var budget: ProviderBudget
    /// `upstream.maxQueueMs` in seconds.
    var maxQueueSeconds: Double = 0.25

    var arguments: [String] {
        let opening = StewardLimits.breakerOpenSeconds
        var out = [operationName, pinnedNow.map(Self.number) ?? "",
                   Self.number(max(0, budget.maxRequestsPerSecond)), String(max(1, budget.burst)),
                   Self.number(max(0, limits.maxCooldownSeconds)), String(max(1, limits.breakerFailures)),
                   String(max(0, limits.retryBudgetPercent)), Self.number(max(1, limits.staleProbeSeconds)),
                   Self.number(opening.first), Self.number(opening.max), String(StewardLimits.retryWindowSeconds),
                   String(StewardKeyLayout.ttlMilliseconds(limits: limits, budget: budget)),
                   Self.number(max(0, maxQueueSeconds))]
        switch operation {
        case .admit(let request):
            out += [Self.number(max(0, request.maxWaitSeconds)), Self.flag(request.background), Self.flag(request.isRetry)]
        case .abandon(let ticket):
            out += [Self.flag(ticket.cooldownProbe), Self.flag(ticket.breakerProbe)]
        case .record(let ticket, let outcome):
            out += [Self.flag(ticket.cooldownProbe), Self.flag(ticket.breakerProbe)]
            switch outcome {
            case .stop(let retryAfter):
                // As `Cooldown.stop`: a Retry-After that is not finite counts as none.
                out += ["stop", retryAfter.flatMap { $0.isFinite ? Self.number($0) : nil } ?? ""]
            case .failure: out += ["failure", ""]
            case .answered: out += ["answered", ""]
            case .cancelled: out += ["cancelled", ""]
            }
        case .allowsRetry(let inFlight):
            out += [String(max(0, inFlight)), String(StewardLimits.minRetriesInFlight)]
        }
        return out
    }

    private var operationName: String {
        switch operation {
        case .admit: "admit"
        case .abandon: "abandon"
        case .record: "record"
        case .allowsRetry: "retry"
        }
    }

    /// A number Lua's `tonumber` reads back exactly: Swift's shortest round-trip form, with
    /// infinities and NaN (which Lua would not read) clamped to ±1e15 and 0. No value here
    /// comes near 1e15 seconds or tokens.
    static func number(_ value: Double) -> String {
        guard !value.isNaN else { return "0" }
        return String(describing: min(1e15, max(-1e15, value)))
    }

    static func flag(_ value: Bool) -> String { value ? "1" : "0" }
}
