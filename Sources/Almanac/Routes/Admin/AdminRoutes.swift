import Cache
import Foundation
import Base
import HTTP1
import Web
import Upstream

/// The admin API: cache statistics and purges, behind `Authorization: Bearer <token>`.
/// Registered only when `server.adminToken` is set, so without it the paths are plain 404s
/// and a scanner learns nothing.
enum AdminRoutes {
    /// Namespaces an operator may purge one by one (docs/operations.md "Admin API").
    static let namespaces = ["rates", "history", "books", "covers", "book-search", "volumes"]

    static func register(on router: inout Router, token: String, cache: any CacheAdministration, logger: Logger?,
                         upstreams: @escaping @Sendable () -> [ProviderStatus] = { [] }) {
        router.get("/admin/upstreams") { request, _ in
            authorized(request, token) {
                .ready(OperationsRoutes.json(UpstreamsAdministration.json(upstreams())))
            }
        }

        router.get("/admin/cache") { request, _ in
            authorized(request, token) {
                .ready(OperationsRoutes.json(statsJSON(cache.stats())))
            }
        }

        router.delete("/admin/cache") { request, _ in
            authorized(request, token) {
                .pending {
                    let shared = await cache.purgeAllEverywhere()
                    log(shared, "admin: purged every cache namespace", namespace: nil, request: request, logger: logger)
                    return OperationsRoutes.json(#"{"purged":["# + namespaces.map { "\"\($0)\"" }.joined(separator: ",") + "]"
                                                 + sharedFields(shared) + "}")
                }
            }
        }

        router.delete("/admin/cache/{namespace}") { request, params in
            authorized(request, token) {
                let name = params["namespace"] ?? ""
                guard namespaces.contains(name) else {
                    return .ready(Problem(status: .notFound, slug: "not-found",
                                          detail: "No cache namespace is called \(name.prefix(64)); use one of \(namespaces.joined(separator: ", ")).").response)
                }
                // A namespace nobody has used yet is already empty: purging it succeeds
                // (and still clears the shared cache, which other replicas may have filled).
                return .pending {
                    let shared = await cache.purgeEverywhere(namespace: name) ?? .notConfigured
                    log(shared, "admin: purged cache namespace", namespace: name, request: request, logger: logger)
                    return OperationsRoutes.json(#"{"purged":[""# + name + #""]"# + sharedFields(shared) + "}")
                }
            }
        }
    }

    /// How far a purge reached beyond this replica, as fields of the answer: none without a
    /// shared cache; `"l2":"purged","deletedKeys":N`; or `"l2":"unavailable"` when Redis could
    /// not be reached (only this replica was purged; the others keep their copies until their TTL).
    static func sharedFields(_ outcome: SharedPurgeOutcome) -> String {
        switch outcome {
        case .notConfigured: return ""
        case .purged(let deleted): return #","l2":"purged","deletedKeys":\#(deleted)"#
        case .unavailable: return #","l2":"unavailable""#
        }
    }

    private static func log(_ outcome: SharedPurgeOutcome, _ message: String, namespace: String?,
                            request: HTTPRequest, logger: Logger?) {
        let name = Logger.Value.string(namespace ?? "*")
        if case .unavailable(let reason) = outcome {
            logger?.warn(message + " in this replica only: the shared cache (Redis) is unavailable",
                         ["namespace": name, "reason": .string(reason)],
                         for: RequestLogContext(requestID: request.requestID, trace: TraceContext.current))
        } else {
            logger?.info(message, ["namespace": name, "request_id": .string(request.requestID)])
        }
    }

    /// Runs `body` only for the right bearer token; otherwise 401 with `WWW-Authenticate`
    /// (RFC 6750 §3), naming `invalid_token` when a token was sent but is wrong.
    private static func authorized(_ request: HTTPRequest, _ token: String,
                                   _ body: () -> HTTPResponseFuture) -> HTTPResponseFuture {
        let sent = BearerToken.credentials(from: request.headers["Authorization"])
        if let sent, BearerToken.matches(sent, expected: token) { return body() }
        var response = Problem(status: .unauthorized, slug: "unauthorized", title: "Unauthorized",
                               detail: sent == nil
                                   ? "The admin API needs an Authorization: Bearer <admin token> header."
                                   : "The bearer token is not the admin token.").response
        response.headers.set("WWW-Authenticate", sent == nil
                             ? #"Bearer realm="almanac-admin""#
                             : #"Bearer realm="almanac-admin", error="invalid_token""#)
        return .ready(response)
    }

    static func statsJSON(_ stats: [String: CacheStats]) -> String {
        var namespaces: [String: Any] = [:]
        for (name, s) in stats {
            namespaces[name] = [
                "entries": s.entries, "bytes": s.bytes, "hits": Int(s.hits), "misses": Int(s.misses),
                "stale": Int(s.stale), "evictions": Int(s.evictions), "loadsInFlight": s.loadsInFlight,
            ] as [String: Any]
        }
        let data = (try? JSONSerialization.data(withJSONObject: ["namespaces": namespaces], options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
