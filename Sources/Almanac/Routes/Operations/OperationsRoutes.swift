import Base
import Foundation
import Gzip
import HTTP1
import Web
import Upstream

/// `/healthz`, `/readyz`, `/metrics`, `/openapi.json` and, when an admin token is set, the
/// admin API (docs/operations.md "Health, readiness, shutdown", "Admin API"). Every answer is `Cache-Control: no-store`: these
/// describe this instance right now, and a proxy must never answer for it.
public enum OperationsRoutes {
    /// What the routes read; built by the app and by tests, with the memberwise initialiser.
    struct Dependencies: Sendable {
        /// True once shutdown began; `/readyz` answers 503 from then on.
        var isDraining: @Sendable () -> Bool
        var metrics: MetricsRegistry
        /// The admin API exists only when this is set.
        var adminToken: String?
        var cache: any CacheAdministration
        var logger: Logger?
        /// Each provider's steward state, for `GET /admin/upstreams`.
        var upstreams: @Sendable () -> [ProviderStatus] = { [] }
        /// Whether the shared cache (Redis) answers; nil when none is configured.
        var sharedCacheUp: (@Sendable () -> Bool)?
        /// The Redis primary in use (`host:port`), with Sentinel only; nil while none is connected.
        var sharedCachePrimary: (@Sendable () -> String?)? = nil
    }

    static func register(on router: inout Router, _ deps: Dependencies) {
        router.get("/healthz") { _, _ in .ready(json(#"{"status":"ok"}"#)) }

        router.get("/readyz") { _, _ in
            guard !deps.isDraining() else {
                return .ready(Problem(status: .serviceUnavailable, slug: "draining", title: "Draining",
                                      detail: "This instance is shutting down; send new requests to another one.").response)
            }
            // Redis down is not "not ready": this instance serves from memory and upstream.
            guard let up = deps.sharedCacheUp else { return .ready(json(#"{"status":"ready"}"#)) }
            var body = up() ? #"{"status":"ready","l2":"up""# : #"{"status":"ready","l2":"down""#
            if let primary = deps.sharedCachePrimary?() {
                body += #","l2primary":"#
                JSONText.appendString(primary, to: &body)
            }
            return .ready(json(body + "}"))
        }

        router.get("/metrics") { _, _ in
            let body = Array(deps.metrics.render().utf8)
            var headers = HTTPHeaders()
            headers.set("Content-Type", PrometheusText.contentType)
            headers.set("Cache-Control", "no-store")
            return .ready(HTTPResponse(status: .ok, headers: headers, body: body))
        }

        router.get("/openapi.json", public: true) { request, _ in
            // A constant document: its gzip form is made once, at first demand.
            var headers: HTTPHeaders = ["Cache-Control": "no-store", "Vary": "Accept-Encoding"]
            if AcceptEncoding.allowsGzip(request),
               let gzip = openAPIGzip {
                headers.add("Content-Encoding", "gzip")
                return .ready(HTTPResponse.json(gzip, headers: headers))
            }
            return .ready(HTTPResponse.json(OpenAPIDocument.bytes, headers: headers))
        }

        if let token = deps.adminToken {
            AdminRoutes.register(on: &router, token: token, cache: deps.cache, logger: deps.logger, upstreams: deps.upstreams)
        }
    }

    private static let openAPIGzip = try? Gzip.compress(OpenAPIDocument.bytes)

    static func json(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse.json(Array(text.utf8), status: status, headers: ["Cache-Control": "no-store"])
    }
}
