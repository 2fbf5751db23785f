import Cache
import HTTPClient
import HTTPClientTestSupport
import HTTP1
import Testing
@testable import Almanac

/// Wiring without sockets: the app's router, plugins and metrics, driven through the router.
@Suite struct AlmanacAppTests {
    private func app(token: String? = nil, sink: MemoryLogSink = MemoryLogSink()) -> AlmanacApp {
        var config = AlmanacConfiguration()
        config.server.adminToken = token
        config.log.level = .debug
        let client = StubHTTPClient { _ in StubHTTPClient.json("{}") }
        let plugins = AlmanacPlugins(
            routes: [{ router, context in
                let client = context.httpClient
                let cache = context.cache
                router.get("/v1/feature/{id}") { _, params in
                    .pending {
                        _ = try? await client.get(UpstreamRequest(url: "http://upstream.test/x?key=SECRETKEY1", provider: "stub"))
                        _ = cache.stats()
                        return HTTPResponse.json(Array("{\"id\":\"\(params["id"] ?? "")\"}".utf8))
                    }
                }
            }],
            makeHTTPClient: { _, _ in client },
            upstreamMetrics: { client in
                let count = UInt64((client as? StubHTTPClient)?.requests.count ?? 0)
                return UpstreamMetricsSnapshot(requests: [.init(provider: "stub", outcome: "ok", count: count)])
            })
        return AlmanacApp(configuration: config, plugins: plugins, logSink: sink)
    }

    private func serve(_ app: AlmanacApp, _ method: String, _ target: String) async -> HTTPResponse {
        await awaited(pipelined(app.router, metrics: app.httpMetrics)(HTTPRequest(method: method, target: target)))
    }

    @Test func pluginsRegisterRoutesWithTheSharedContextAndFeedMetrics() async {
        let app = app()
        #expect(app.router.routes.contains { $0.pattern == "/v1/feature/{id}" })
        let response = await serve(app, "GET", "/v1/feature/42")
        #expect(response.text == #"{"id":"42"}"#)
        let metrics = await serve(app, "GET", "/metrics").text
        #expect(metrics.contains(#"almanac_upstream_requests_total{provider="stub",outcome="ok"} 1"#))
        #expect(metrics.contains(#"almanac_http_requests_total{route="/v1/feature/{id}",method="GET",status="200"} 1"#))
    }

    @Test func shutdownMakesReadinessFail() async {
        let app = app()
        #expect(await serve(app, "GET", "/readyz").status == .ok)
        await app.shutdown()
        #expect(await serve(app, "GET", "/readyz").status == .serviceUnavailable)
    }

    @Test func adminFollowsTheConfiguredToken() async {
        #expect(await serve(app(), "GET", "/admin/cache").status == .notFound)
        #expect(await serve(app(token: "configured-token-1"), "GET", "/admin/cache").status == .unauthorized)
    }

    @Test func loggerRedactsTheConfiguredSecrets() {
        let sink = MemoryLogSink()
        let app = app(token: "configured-token-2", sink: sink)
        app.logger.debug("token configured-token-2 in a message")
        #expect(sink.lines.count == 1)
        #expect(!sink.lines[0].contains("configured-token-2"))
    }
}
