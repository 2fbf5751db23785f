import Base

/// The real `HTTPClient`: libcurl's multi interface on one serial queue (`CurlMultiEngine`),
/// with this type adding what a careful upstream caller needs on top of one HTTP exchange:
/// a total deadline, retries with backoff, redirect and host policy, metrics, and redaction.
public final class CurlHTTPClient: HTTPClient {
    public let configuration: HTTPClientConfiguration
    /// Attempts by provider and outcome, with latency; read by the `/metrics` renderer.
    public let metrics: UpstreamMetrics
    /// The clock of a `get` without a deadline (its `timeoutMs`); a call with a deadline reads
    /// the deadline's clock instead (`UpstreamDeadline`). Tests inject a manual one.
    public let clock: any MonotonicClock
    private let engine: CurlMultiEngine

    public init(configuration: HTTPClientConfiguration = HTTPClientConfiguration(),
                metrics: UpstreamMetrics = UpstreamMetrics(), clock: any MonotonicClock = SystemClock()) {
        self.configuration = configuration
        self.metrics = metrics
        self.clock = clock
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
        try await get(request, deadline: UpstreamDeadline(clock: clock, afterMilliseconds: configuration.timeoutMs), gate: OpenGate())
    }

    /// The same within `deadline`, each attempt admitted by `gate` (see `RetryLoop`). Latency,
    /// time waited and time left are read on the deadline's clock.
    public func get(_ request: UpstreamRequest, deadline: UpstreamDeadline, gate: any AttemptGate) async throws -> UpstreamResponse {
        let clock = deadline.clock
        let callStarted = clock.now()
        return try await RetryLoop.run(request, retries: configuration.retries, deadline: deadline,
                                       configuration: configuration, gate: gate) { deadline in
            let started = clock.now()
            let result: Result<UpstreamResponse, UpstreamError>
            do {
                result = .success(try await followingRedirects(request, deadline: deadline, callStarted: callStarted))
            } catch let error as UpstreamError {
                result = .failure(error)
            } catch {
                result = .failure(UpstreamError(.other, provider: request.provider, detail: String(describing: error)))
            }
            metrics.record(provider: request.provider, outcome: Self.outcome(of: result),
                           seconds: max(0, clock.now() - started))
            return result
        }
    }

    /// One attempt. Every URL, first or redirected, must be http(s) without userinfo. With
    /// `.never` a 3xx fails as `.redirected`; with `.within(policy)` up to `maxRedirects` hops
    /// are followed, each checked (scheme, host, port) before any connection is made to it.
    /// libcurl never follows a redirect itself (`CURLOPT_FOLLOWLOCATION` is off).
    /// `callStarted`: when the whole `get` began, so a timeout says how long was waited.
    private func followingRedirects(_ request: UpstreamRequest, deadline: UpstreamDeadline,
                                    callStarted: Double) async throws -> UpstreamResponse {
        let redactor = request.redactor
        let requested = redactor.redact(request.url)
        var url = request.url
        var headers = TracePropagation.headers(request.headers)
        var hops = 0
        /// Milliseconds since the call began; a call that ran to its deadline says the limit it
        /// ran to, not the few ms of scheduling after it.
        func waitedMs() -> Int {
            let waited = Int((max(0, min(1e9, deadline.clock.now() - callStarted)) * 1000).rounded(.down))
            return min(max(0, waited), configuration.timeoutMs)
        }
        func failure(_ kind: UpstreamError.Kind, _ detail: String, _ diagnostic: String) -> UpstreamError {
            let scrubbed = Redactor.scrub(diagnostic, url: url, parameters: request.secretQueryParameters)
            return UpstreamError(kind, provider: request.provider, detail: detail, diagnostic: scrubbed, url: requested)
        }
        while true {
            let shown = redactor.redact(url)
            if let refusal = Self.refusal(of: url, rule: request.redirects) {
                throw hops == 0
                    ? failure(.invalidURL, "upstream URL refused", "\(refusal): \(shown)")
                    : failure(.redirected, "redirected to a refused location", "redirect hop \(hops) refused, \(refusal): \(shown)")
            }
            let remaining = deadline.remainingSeconds
            guard remaining > 0 else {
                throw failure(.timeout, "timed out after \(waitedMs()) ms", "deadline reached before GET \(shown)")
            }
            let spec = TransferSpec(
                url: url, headers: headers, client: configuration,
                timeoutMs: max(1, Int((min(remaining, 1e9) * 1000).rounded(.up))),
                maxResponseBytes: request.maxResponseBytes ?? configuration.maxResponseBytes, clock: deadline.clock)
            switch await engine.perform(spec) {
            case .failure(let kind, let detail):
                throw failure(kind, CurlErrorMapping.publicCause(of: kind, waitedMs: waitedMs(),
                                                                 maxResponseBytes: spec.maxResponseBytes),
                              "\(detail) (GET \(shown))")
            case .response(let response, let redirectURL):
                guard (300...399).contains(response.status) else { return response }
                let location = redirectURL.map(redactor.redact) ?? "(no Location)"
                guard case .within = request.redirects else {
                    throw failure(.redirected, "redirected", "HTTP \(response.status) to \(location), not followed (GET \(shown))")
                }
                guard Self.followedStatuses.contains(response.status), let next = redirectURL, !next.isEmpty else {
                    return response
                }
                hops += 1
                guard hops <= configuration.maxRedirects else {
                    throw failure(.redirected, "redirected more than \(configuration.maxRedirects) times",
                                  "hop \(hops) to \(location) not followed (GET \(shown))")
                }
                // Credentials stay with the origin they were meant for.
                if UpstreamURL.parse(next) != UpstreamURL.parse(url) {
                    headers.removeAll { Self.credentialHeaders.contains($0.name.lowercased()) }
                }
                url = next
            }
        }
    }

    /// The redirect statuses whose `Location` a cover fetch follows (RFC 9110 §15.4).
    static let followedStatuses: Set<Int> = [301, 302, 303, 307, 308]
    /// Never carried to another origin.
    static let credentialHeaders: Set<String> = ["authorization", "cookie", "proxy-authorization"]

    /// Why `url` may not be requested under `rule`, or nil.
    static func refusal(of url: String, rule: RedirectRule) -> String? {
        switch rule {
        case .within(let policy):
            if case .failure(let refusal) = policy.check(url) { return refusal.description }
            return nil
        case .never:
            guard let parsed = UpstreamURL.parse(url), parsed.isHTTP else { return UpstreamOrigin.Refusal.notHTTP.rawValue }
            return UpstreamURL.hasUserinfo(url) ? UpstreamOrigin.Refusal.userinfo.rawValue : nil
        }
    }

    private static func outcome(of result: Result<UpstreamResponse, UpstreamError>) -> String {
        switch result {
        case .success(let response): return UpstreamMetrics.outcomeLabel(forStatus: response.status)
        case .failure(let error): return UpstreamMetrics.outcomeLabel(for: error.kind)
        }
    }
}
