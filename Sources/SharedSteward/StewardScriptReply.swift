import Redis
import Upstream

/// `StewardScript`'s reply, decoded (pure, tested without sockets): the operation's result and
/// the provider's state after the call (`SharedProviderSnapshot`).
///
/// The reply is `{result, status}`; every number travels as text (Redis would truncate a
/// Lua number to an integer). `result` by operation: admit `{"admitted", cooldownProbe,
/// breakerProbe, waitSeconds}` or `{"skipped", reason, availableInSeconds}`; record a list of
/// changes `{"cooldownStarted", seconds}`, `{"cooldownEnded"}`, `{"breakerOpened", seconds,
/// failures}`, `{"breakerClosed"}`; retry `{"1"}` or `{"0"}`; abandon `{}`. A reply of any
/// other shape is an error (`nil`): the caller falls back to the local state, as for a Redis
/// failure, rather than guess.
struct StewardScriptReply: Sendable, Equatable {
    var result: [RESPValue]
    var snapshot: SharedProviderSnapshot

    init?(_ reply: RESPValue) {
        guard let parts = reply.elements, parts.count == 2, let result = parts[0].elements,
              let status = parts[1].elements, let snapshot = SharedProviderSnapshot(status.map(Self.text)) else { return nil }
        self.result = result
        self.snapshot = snapshot
    }

    /// The result of `admit`.
    var admission: Admission? {
        let fields = result.map(Self.text)
        switch fields.first {
        case "admitted":
            guard fields.count == 4, let wait = Self.seconds(fields[3]) else { return nil }
            return .admitted(AdmissionTicket(cooldownProbe: fields[1] == "1", breakerProbe: fields[2] == "1", shared: true),
                             waitSeconds: wait)
        case "skipped":
            guard fields.count == 3, let reason = fields[1].flatMap(ProviderSkipped.Reason.init(rawValue:)),
                  let seconds = Self.seconds(fields[2]) else { return nil }
            return .skipped(reason, availableInSeconds: seconds)
        default:
            return nil
        }
    }

    /// The result of `record`.
    var changes: [StewardChange]? {
        var changes: [StewardChange] = []
        for entry in result {
            guard let fields = entry.elements?.map(Self.text) else { return nil }
            switch (fields.first, fields.count) {
            case ("cooldownStarted", 2):
                guard let seconds = Self.seconds(fields[1]) else { return nil }
                changes.append(.cooldownStarted(seconds: seconds))
            case ("cooldownEnded", 1):
                changes.append(.cooldownEnded)
            case ("breakerOpened", 3):
                guard let seconds = Self.seconds(fields[1]), let failures = fields[2].flatMap(Int.init) else { return nil }
                changes.append(.breakerOpened(seconds: seconds, failures: failures))
            case ("breakerClosed", 1):
                changes.append(.breakerClosed)
            default:
                return nil
            }
        }
        return changes
    }

    /// The result of `retry`.
    var allowsRetry: Bool? {
        switch result.map(Self.text) {
        case ["1"]: true
        case ["0"]: false
        default: nil
        }
    }

    /// A string reply's text (nil for any other kind).
    static func text(_ value: RESPValue) -> String? {
        value.stringBytes.map { String(decoding: $0, as: UTF8.self) }
    }

    /// A finite, non-negative number of seconds (a duration), or nil.
    static func seconds(_ text: String?) -> Double? {
        guard let text, let value = Double(text), value.isFinite else { return nil }
        return max(0, value)
    }
}
