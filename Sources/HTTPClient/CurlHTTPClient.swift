/// The real `HTTPClient`: libcurl's multi interface on one serial queue (`CurlMultiEngine`),
/// with this type adding what a careful upstream caller needs on top of one HTTP exchange:
/// a total deadline, retries with backoff, redirect and host policy, metrics, and redaction.
public final class CurlHTTPClient: HTTPClient {
    public let configuration: HTTPClientConfiguration
    /// Attempts by provider and outcome, with latency; read by the `/metrics` renderer.
    public let metrics: UpstreamMetrics
    private let engine: CurlMultiEngine

    public init(configuration: HTTPClientConfiguration = HTTPClientConfiguration(),
                metrics: UpstreamMetrics = UpstreamMetrics()) {
        self.configuration = configuration
        self.metrics = metrics
        engine = CurlMultiEngine(maxConnectionsPerHost: configuration.maxConnectionsPerHost,
                                 maxConnectionsTotal: configuration.maxConnectionsTotal)
    }

    deinit {
        engine.shutdown()
    }

    /// GET with retries (502/503/504 and connect failures or timeouts; never 429), backoff
    /// with full jitter honouring `Retry-After`, all within `timeoutMs`. An HTTP error status
    /// that is not retried, or remains after the retries, is returned as a value.
    public func get(_ request: UpstreamRequest) async throws -> UpstreamResponse {
        try await get(request, deadline: ContinuousClock().now + .milliseconds(max(1, configuration.timeoutMs)), gate: OpenGate())
    }

    /// The same within `deadline`, each attempt admitted by `gate` (see `RetryLoop`).
    public func get(_ request: UpstreamRequest, deadline: ContinuousClock.Instant, gate: any AttemptGate) async throws -> UpstreamResponse {
        let clock = ContinuousClock()
        return try await RetryLoop.run(request, retries: configuration.retries, deadline: deadline,
                                       configuration: configuration, gate: gate) { deadline in
            let started = clock.now
            let result: Result<UpstreamResponse, UpstreamError>
            do {
                result = .success(try await followingRedirects(request, deadline: deadline, clock: clock))
            } catch let error as UpstreamError {
                result = .failure(error)
            } catch {
                result = .failure(UpstreamError(.other, provider: request.provider, detail: String(describing: error)))
            }
            metrics.record(provider: request.provider, outcome: Self.outcome(of: result),
                           seconds: (clock.now - started).inSeconds)
            return result
        }
    }

    /// One attempt: follows up to `maxRedirects` hops, checking each URL's scheme and host
    /// before any connection is made to it.
    private func followingRedirects(_ request: UpstreamRequest, deadline: ContinuousClock.Instant,
                                    clock: ContinuousClock) async throws -> UpstreamResponse {
        var url = request.url
        var hops = 0
        while true {
            let shown = URLRedactor.redact(url, secrets: request.secretQueryParameters)
            func failure(_ kind: UpstreamError.Kind, _ detail: String) -> UpstreamError {
                let scrubbed = URLRedactor.scrub(detail, url: url, secrets: request.secretQueryParameters)
                return UpstreamError(kind, provider: request.provider, detail: scrubbed)
            }
            guard let parsed = UpstreamURL.parse(url), parsed.isHTTP else {
                throw hops == 0
                    ? failure(.invalidURL, "not an absolute http(s) URL: \(shown)")
                    : failure(.redirect, "redirect to a non-HTTP(S) URL refused: \(shown)")
            }
            if let allowed = request.allowedHosts, !HostPolicy.allows(parsed.host, in: allowed) {
                throw hops == 0
                    ? failure(.invalidURL, "host \(parsed.host) is not an allowed upstream host")
                    : failure(.redirect, "redirect to host \(parsed.host) refused: not an allowed upstream host")
            }
            let remaining = deadline - clock.now
            guard remaining > .zero else { throw failure(.timeout, "deadline of \(configuration.timeoutMs) ms reached (GET \(shown))") }
            let spec = TransferSpec(
                url: url, headers: request.headers, userAgent: configuration.userAgent,
                connectTimeoutMs: configuration.connectTimeoutMs,
                timeoutMs: max(1, Int((remaining.inSeconds * 1000).rounded(.up))),
                maxResponseBytes: request.maxResponseBytes ?? configuration.maxResponseBytes,
                lowSpeedLimitBytesPerSecond: configuration.lowSpeedLimitBytesPerSecond,
                lowSpeedTimeSeconds: configuration.lowSpeedTimeSeconds,
                acceptEncoding: configuration.acceptEncoding)
            switch await engine.perform(spec) {
            case .failure(let kind, let detail):
                throw failure(kind, "\(detail) (GET \(shown))")
            case .response(let response, let redirectURL):
                if [301, 302, 303, 307, 308].contains(response.status), let next = redirectURL, !next.isEmpty {
                    hops += 1
                    guard hops <= configuration.maxRedirects else {
                        throw failure(.redirect, "more than \(configuration.maxRedirects) redirects (GET \(shown))")
                    }
                    url = next
                    continue
                }
                return response
            }
        }
    }

    private static func outcome(of result: Result<UpstreamResponse, UpstreamError>) -> String {
        switch result {
        case .success(let response): return UpstreamMetrics.outcomeLabel(forStatus: response.status)
        case .failure(let error): return UpstreamMetrics.outcomeLabel(for: error.kind)
        }
    }
}
