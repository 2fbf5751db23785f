import Base
import Cache
import Foundation
import HTTPClient
import HTTP1
import Web
import Testing
@testable import Almanac

/// A strict reader of the Prometheus text format 0.0.4, enough to reject anything a real
/// scraper would.
private struct ParsedExposition {
    var help: [String: Int] = [:]
    var types: [String: String] = [:]
    /// (series name, labels, value) in order.
    var samples: [(name: String, labels: [String: String], value: Double)] = []

    init(_ text: String) throws {
        #expect(text.hasSuffix("\n"))
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            if line.hasPrefix("# HELP ") {
                let name = String(line.dropFirst(7).prefix { $0 != " " })
                try check(ParsedExposition.isMetricName(name), "bad HELP name in \(line)")
                help[name, default: 0] += 1
            } else if line.hasPrefix("# TYPE ") {
                let parts = line.dropFirst(7).split(separator: " ")
                try check(parts.count == 2 && ["counter", "gauge", "histogram", "summary", "untyped"].contains(String(parts[1])), "bad TYPE \(line)")
                try check(types[String(parts[0])] == nil, "TYPE twice for \(parts[0])")
                types[String(parts[0])] = String(parts[1])
            } else if line.hasPrefix("#") {
                continue
            } else {
                samples.append(try ParsedExposition.sample(String(line)))
            }
        }
    }

    static func sample(_ line: String) throws -> (String, [String: String], Double) {
        var rest = Substring(line)
        let name = String(rest.prefix { $0 != "{" && $0 != " " })
        try check(isMetricName(name), "bad metric name in \(line)")
        rest = rest.dropFirst(name.count)
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let label = String(rest.prefix { $0 != "=" })
                try check(isLabelName(label), "bad label name \(label) in \(line)")
                rest = rest.dropFirst(label.count)
                try check(rest.hasPrefix("=\""), "label without quoted value in \(line)")
                rest = rest.dropFirst(2)
                var value = ""
                while let c = rest.first, c != "\"" {
                    rest = rest.dropFirst()
                    if c == "\\" {
                        let e = rest.first
                        try check(e == "\\" || e == "\"" || e == "n", "bad escape in \(line)")
                        value.append(e == "n" ? "\n" : e!)
                        rest = rest.dropFirst()
                    } else {
                        value.append(c)
                    }
                }
                try check(rest.first == "\"", "unterminated label value in \(line)")
                rest = rest.dropFirst()
                try check(labels[label] == nil, "duplicate label in \(line)")
                labels[label] = value
                if rest.first == "," { rest = rest.dropFirst() }
            }
            rest = rest.dropFirst()
        }
        try check(rest.first == " ", "no space before value in \(line)")
        let valueText = rest.dropFirst()
        let value: Double? = switch valueText {
        case "+Inf": .infinity
        case "-Inf": -.infinity
        case "NaN": .nan
        default: Double(valueText)
        }
        try check(value != nil, "bad value in \(line)")
        return (name, labels, value!)
    }

    static func isMetricName(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, first.properties.isAlphabetic || first == "_" || first == ":" else { return false }
        return s.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "_" || $0 == ":" }
    }

    static func isLabelName(_ s: String) -> Bool { isMetricName(s) && !s.contains(":") }
}

private struct ExpositionError: Error, CustomStringConvertible { var description: String }
private func check(_ ok: Bool, _ message: @autoclosure () -> String) throws {
    if !ok { throw ExpositionError(description: message()) }
}

@Suite struct MetricsTests {
    private func fullRegistry() -> (MetricsRegistry, HTTPMetrics) {
        let http = HTTPMetrics()
        http.record(route: "/v1/rates/{code}", method: "GET", status: 200, seconds: 0.0004)
        http.record(route: "/v1/rates/{code}", method: "GET", status: 200, seconds: 2)
        http.record(route: "/v1/rates/{code}", method: "BREW", status: 404, seconds: 0.1)
        http.record(route: HTTPMetrics.unmatchedRoute, method: "GET", status: 404, seconds: 0.00001)
        var rates = CacheStats()
        rates.entries = 3; rates.bytes = 1200; rates.hits = 10; rates.misses = 2; rates.stale = 1; rates.evictions = 4
        let latency = LatencyHistogram()
        latency.record(seconds: 0.2)
        latency.record(seconds: 40)
        let upstream = UpstreamMetricsSnapshot(
            requests: [.init(provider: "coinbase", outcome: "ok", count: 5), .init(provider: "weird\"\\\nname", outcome: "timeout", count: 1)],
            durations: ["coinbase": latency.snapshot()])
        let registry = AlmanacMetrics.makeRegistry(.init(http: http, openConnections: { 7 },
                                                         reclaimedConnections: { ReclaimedConnections(idle: 12, silent: 3) },
                                                         refusedConnections: { 4 },
                                                         eventLoops: { (4, 2) }, rebalancedConnections: { 9 },
                                                         cacheStats: { [rates] in ["rates": rates, "books": CacheStats()] },
                                                         upstream: { upstream },
                                                         sharedCache: { SharedCacheStats() }))
        return (registry, http)
    }

    @Test func wholeOutputParsesStrictly() throws {
        let (registry, _) = fullRegistry()
        let text = registry.render()
        let parsed = try ParsedExposition(text)

        // Every family has HELP and TYPE exactly once, and every sample belongs to a typed family.
        #expect(parsed.help.values.allSatisfy { $0 == 1 })
        #expect(Set(parsed.help.keys) == Set(parsed.types.keys))
        for sample in parsed.samples {
            let family = parsed.types[sample.name] != nil ? sample.name
                : ["_bucket", "_sum", "_count"].compactMap { sample.name.hasSuffix($0) ? String(sample.name.dropLast($0.count)) : nil }.first
            #expect(family.flatMap { parsed.types[$0] } != nil, "untyped sample \(sample.name)")
        }

        for family in ["almanac_http_requests_total", "almanac_http_request_duration_seconds", "almanac_http_open_connections",
                       "almanac_connections_reclaimed_total", "almanac_connections_refused_total",
                       "almanac_http_event_loops", "almanac_http_active_event_loops", "almanac_connections_rebalanced_total",
                       "almanac_cache_hits_total", "almanac_cache_misses_total", "almanac_cache_stale_total",
                       "almanac_cache_evictions_total", "almanac_cache_entries", "almanac_cache_bytes",
                       "almanac_upstream_requests_total", "almanac_upstream_request_duration_seconds", "almanac_build_info",
                       "process_resident_memory_bytes", "process_open_fds", "process_max_fds", "process_start_time_seconds",
                       "almanac_cache_l2_up", "almanac_cache_l2_hits_total", "almanac_cache_l2_errors_total"] {
            #expect(parsed.types[family] != nil, "missing \(family)")
        }

        // Histograms: buckets ascend in `le`, counts are monotone, +Inf equals _count.
        for (name, type) in parsed.types where type == "histogram" {
            let buckets = parsed.samples.filter { $0.name == name + "_bucket" }
            let series = Dictionary(grouping: buckets) { $0.labels.filter { $0.key != "le" }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",") }
            for (key, list) in series {
                let bounds = list.map { $0.labels["le"] == "+Inf" ? Double.infinity : Double($0.labels["le"]!)! }
                #expect(bounds == bounds.sorted() && bounds.last == .infinity, "\(name){\(key)}")
                let counts = list.map(\.value)
                #expect(counts == counts.sorted(), "\(name){\(key)} not monotone")
                let count = parsed.samples.first { $0.name == name + "_count" && $0.labels == list[0].labels.filter { $0.key != "le" } }
                #expect(count?.value == counts.last, "\(name){\(key)} +Inf != _count")
            }
        }

        #expect(text.contains(#"almanac_http_requests_total{route="/v1/rates/{code}",method="GET",status="200"} 2"#))
        #expect(text.contains(#"almanac_http_requests_total{route="/v1/rates/{code}",method="OTHER",status="404"} 1"#))
        #expect(text.contains(#"almanac_http_requests_total{route="unmatched",method="GET",status="404"} 1"#))
        #expect(text.contains("almanac_http_open_connections 7\n"))
        #expect(text.contains("# TYPE almanac_connections_reclaimed_total counter\n"))
        #expect(text.contains(#"almanac_connections_reclaimed_total{state="idle"} 12"# + "\n"))
        #expect(text.contains(#"almanac_connections_reclaimed_total{state="silent"} 3"# + "\n"))
        #expect(text.contains("# TYPE almanac_connections_refused_total counter\nalmanac_connections_refused_total 4\n"))
        #expect(text.contains("# TYPE almanac_http_event_loops gauge\nalmanac_http_event_loops 4\n"))
        #expect(text.contains("# TYPE almanac_http_active_event_loops gauge\nalmanac_http_active_event_loops 2\n"))
        #expect(text.contains("# TYPE almanac_connections_rebalanced_total counter\nalmanac_connections_rebalanced_total 9\n"))
        #expect(text.contains(#"almanac_cache_hits_total{namespace="rates"} 10"#))
        #expect(text.contains(#"almanac_cache_bytes{namespace="rates"} 1200"#))
        #expect(text.contains(#"almanac_upstream_requests_total{provider="weird\"\\\nname",outcome="timeout"} 1"#))
        #expect(text.contains(#"almanac_upstream_request_duration_seconds_bucket{provider="coinbase",le="+Inf"} 2"#))
        #expect(text.contains(#"almanac_build_info{version="\#(AlmanacVersion.string)",commit="\#(AlmanacVersion.commit)",swift="\#(AlmanacVersion.swiftVersion)"} 1"#))
        let rss = parsed.samples.first { $0.name == "process_resident_memory_bytes" }?.value ?? 0
        #expect(rss > 0)
    }

    @Test func metricsRouteServesTheExposition() async throws {
        let (registry, _) = fullRegistry()
        let router = AlmanacApp.makeRouter(operations: .init(isDraining: { false }, metrics: registry, adminToken: nil, cache: FakeCache()))
        let response = await respond(router, "GET", "/metrics")
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8")
        #expect(response.headers["Cache-Control"] == "no-store")
        _ = try ParsedExposition(response.text)
    }

    @Test func responderLabelsByRoutePatternNeverByRawPath() async {
        var router = Router()
        router.get("/v1/items/{id}") { _, _ in .ready(HTTPResponse(status: .ok)) }
        router.get("/slow") { _, _ in .pending { HTTPResponse(status: .gatewayTimeout) } }
        let http = HTTPMetrics()
        let responder = pipelined(router, metrics: http)
        for target in ["/v1/items/1", "/v1/items/2?x=1", "/nope/123", "/slow"] {
            if case let .pending(work) = responder(HTTPRequest(method: "GET", target: target)) { _ = await work() }
        }
        _ = responder(HTTPRequest(method: "POST", target: "/v1/items/3"))
        let text = PrometheusText.render(http.collect())
        #expect(text.contains(#"almanac_http_requests_total{route="/v1/items/{id}",method="GET",status="200"} 2"#))
        #expect(text.contains(#"almanac_http_requests_total{route="unmatched",method="GET",status="404"} 1"#))
        #expect(text.contains(#"almanac_http_requests_total{route="unmatched",method="POST",status="405"} 1"#))
        #expect(text.contains(#"almanac_http_requests_total{route="/slow",method="GET",status="504"} 1"#))
        #expect(!text.contains("/v1/items/1") && !text.contains("/nope"))
    }

    /// The step finds a route's series by the pattern's length, then by comparison: patterns of
    /// one length each keep their own series, and lengths next to them are told apart.
    @Test func patternsOfOneLengthKeepTheirOwnSeries() async {
        var router = Router()
        for pattern in ["/a/{x}", "/b/{y}", "/c/{zz}", "/d"] {
            router.get(pattern) { _, _ in .ready(HTTPResponse(status: .ok)) }
        }
        let http = HTTPMetrics()
        let responder = pipelined(router, metrics: http)
        for target in ["/a/1", "/b/1", "/b/2", "/c/1", "/d"] { _ = await awaited(responder(HTTPRequest(method: "GET", target: target))) }
        let text = PrometheusText.render(http.collect())
        #expect(text.contains(#"almanac_http_requests_total{route="/a/{x}",method="GET",status="200"} 1"#))
        #expect(text.contains(#"almanac_http_requests_total{route="/b/{y}",method="GET",status="200"} 2"#))
        #expect(text.contains(#"almanac_http_requests_total{route="/c/{zz}",method="GET",status="200"} 1"#))
        #expect(text.contains(#"almanac_http_requests_total{route="/d",method="GET",status="200"} 1"#))
    }

    @Test func numberFormatting() {
        #expect(PrometheusText.format(3) == "3")
        #expect(PrometheusText.format(0.25) == "0.25")
        #expect(PrometheusText.format(.infinity) == "+Inf")
        #expect(PrometheusText.format(.nan) == "NaN")
        #expect(Double(PrometheusText.format(0.00005)) == 0.00005)
    }
}

@Suite struct UpstreamSnapshotTests {
    @Test func buildsFromTheClientsPerProviderTable() {
        let h = LatencyHistogram()
        h.record(seconds: 0.01)
        let snapshot = UpstreamMetricsSnapshot(byProvider: ["coinbase": (outcomes: ["ok": 3, "timeout": 1], latency: h.snapshot())])
        let text = PrometheusText.render(snapshot.families())
        #expect(text.contains(#"almanac_upstream_requests_total{provider="coinbase",outcome="ok"} 3"#))
        #expect(text.contains(#"almanac_upstream_requests_total{provider="coinbase",outcome="timeout"} 1"#))
        #expect(text.contains(#"almanac_upstream_request_duration_seconds_count{provider="coinbase"} 1"#))
    }
}
