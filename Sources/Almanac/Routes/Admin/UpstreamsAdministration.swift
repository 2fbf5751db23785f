import Foundation
import Upstream

/// `GET /admin/upstreams`: each provider's steward state as JSON, providers sorted by name:
/// `{"providers":[{"provider","state","breaker":{…},"cooldown":{…},"budget":{…},"retries":{…},"scope"}]}`;
/// `scope` says whether it is this replica's own state or the cluster's (`ProviderStatus.scope`).
enum UpstreamsAdministration {
    static func json(_ statuses: [ProviderStatus]) -> String {
        let providers: [[String: Any]] = statuses.map { s in
            [
                "provider": s.provider,
                "state": s.state,
                "breaker": ["state": s.breaker, "consecutiveFailures": s.consecutiveFailures,
                            "openForSeconds": rounded(s.breakerOpenForSeconds)] as [String: Any],
                "cooldown": ["active": s.coolingDown, "remainingSeconds": rounded(s.cooldownSeconds)] as [String: Any],
                "budget": ["maxRequestsPerSecond": s.maxRequestsPerSecond, "burst": s.burst,
                           "tokens": rounded(s.maxRequestsPerSecond > 0 ? s.tokens : Double(s.burst))] as [String: Any],
                "retries": ["requestsLast10s": s.requestsLast10s, "retriesLast10s": s.retriesLast10s] as [String: Any],
                "scope": s.scope,
            ]
        }
        let data = (try? JSONSerialization.data(withJSONObject: ["providers": providers], options: [.sortedKeys]))
            ?? Data(#"{"providers":[]}"#.utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// Millisecond precision: enough for an operator, stable for tests.
    private static func rounded(_ seconds: Double) -> Double {
        guard seconds.isFinite else { return 0 }
        return (seconds * 1000).rounded() / 1000
    }
}
