// libFuzzer target `app`: the real almanac router (every route of `AlmanacPlugins.standard`,
// admin on) behind the real request parser, with in-process upstreams (`ScenarioClient`), one
// app per `UpstreamScenario`. Each input becomes one request (`FuzzRequest`); whatever it
// holds, the app must answer it with a well-formed response (`ResponseChecks`), never trap,
// never hang (libFuzzer's -timeout), and keep answering the next one.
import Almanac
import Dispatch
import FuzzSupport
import HTTPClient
import HTTP1
import Web

/// Discards log lines (formatting and redaction still run).
final class DiscardingSink: LogSink {
    func write(line: [UInt8]) {}
}

/// The admin token every app is configured with (`/admin/*` is live).
let adminToken = "fuzz-admin-token-0123456789"

let apps: [AlmanacApp] = UpstreamScenario.allCases.map { scenario in
    var config = AlmanacConfiguration()
    config.server.adminToken = adminToken
    config.upstream.client.retries = 0
    if scenario == .coindeskOnly { config.rates.providers = ["coindesk"] }
    // Small caches, so evictions and misses keep happening.
    config.cache.maxEntries = 64
    let client = ScenarioClient(scenario: scenario)
    let plugins = AlmanacPlugins(routes: AlmanacPlugins.standard.routes, makeHTTPClient: { _, _ in client })
    return AlmanacApp(configuration: config, plugins: plugins, logSink: DiscardingSink())
}

let responders = apps.map { RouteMetricsResponder.make(router: $0.router, metrics: $0.httpMetrics) }
let routePatterns: [String] = {
    var seen: [String] = []
    for route in apps[0].router.routes where !seen.contains(route.pattern) { seen.append(route.pattern) }
    return seen
}()

/// Runs a pending handler to completion on the cooperative pool and waits for it.
func waitFor(_ work: @escaping @Sendable () async -> HTTPResponse) -> HTTPResponse {
    let done = DispatchSemaphore(value: 0)
    let box = ResponseBox()
    Task {
        box.response = await work()
        done.signal()
    }
    done.wait()
    return box.response ?? HTTPResponse(status: .internalServerError, headers: HTTPHeaders(), body: [])
}

final class ResponseBox: @unchecked Sendable {
    var response: HTTPResponse?
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = inputBytes(data, size)
    let index = input.isEmpty ? 0 : Int(input[0]) % apps.count
    let raw = FuzzRequest.build(input, routes: routePatterns)
    var parser = RequestParser()
    parser.append(raw)
    switch parser.next() {
    case let .request(request, _):
        let response: HTTPResponse
        switch responders[index](request) {
        case let .ready(ready): response = ready
        case let .pending(work): response = waitFor(work)
        }
        ResponseChecks.check(response, for: request)
    case let .error(error):
        check([400, 413, 414, 417, 431, 501, 505].contains(error.status.code), "parser answered \(error.status.code)")
        check(!error.detail.isEmpty, "parser error without a detail")
    case .needMore, .expectContinue:
        // The request is complete by construction; only a body-expecting head waits for more.
        break
    }
    return 0
}
