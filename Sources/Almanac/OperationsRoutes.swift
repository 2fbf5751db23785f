import Foundation
import HTTPServer
import Upstream

/// `/healthz`, `/readyz`, `/metrics`, `/openapi.json` and, when an admin token is set, the
/// admin API (API.md §3 "Operations"). Every answer is `Cache-Control: no-store`: these
/// describe this instance right now, and a proxy must never answer for it.
public enum OperationsRoutes {
    public struct Dependencies: Sendable {
        /// True once shutdown began; `/readyz` answers 503 from then on.
        public var isDraining: @Sendable () -> Bool
        public var metrics: MetricsRegistry
        /// The admin API exists only when this is set.
        public var adminToken: String?
        public var cache: any CacheAdministration
        public var logger: Logger?
        /// Each provider's steward state, for `GET /admin/upstreams`.
        public var upstreams: @Sendable () -> [ProviderStatus]

        public init(isDraining: @escaping @Sendable () -> Bool, metrics: MetricsRegistry, adminToken: String?,
                    cache: any CacheAdministration, logger: Logger? = nil,
                    upstreams: @escaping @Sendable () -> [ProviderStatus] = { [] }) {
            self.isDraining = isDraining
            self.metrics = metrics
            self.adminToken = adminToken
            self.cache = cache
            self.logger = logger
            self.upstreams = upstreams
        }
    }

    public static func register(on router: inout Router, _ deps: Dependencies) {
        router.get("/healthz") { _, _ in .ready(json(#"{"status":"ok"}"#)) }

        router.get("/readyz") { _, _ in
            guard !deps.isDraining() else {
                var response = Problem(status: .serviceUnavailable, slug: "draining", title: "Draining",
                                       detail: "This instance is shutting down; send new requests to another one.").response
                response.headers.set("Retry-After", "1")
                return .ready(response)
            }
            return .ready(json(#"{"status":"ready"}"#))
        }

        router.get("/metrics") { _, _ in
            let body = Array(deps.metrics.render().utf8)
            var headers = HTTPHeaders()
            headers.set("Content-Type", PrometheusText.contentType)
            headers.set("Cache-Control", "no-store")
            return .ready(HTTPResponse(status: .ok, headers: headers, body: body))
        }

        router.get("/openapi.json") { _, _ in
            .ready(HTTPResponse.json(OpenAPIDocument.bytes, headers: ["Cache-Control": "no-store"]))
        }

        if let token = deps.adminToken {
            AdminRoutes.register(on: &router, token: token, cache: deps.cache, logger: deps.logger, upstreams: deps.upstreams)
        }
    }

    static func json(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse.json(Array(text.utf8), status: status, headers: ["Cache-Control": "no-store"])
    }
}
