import Base

/// A GET to an upstream API, as services describe it. Services never build raw URLs from
/// request input: they pass already-validated values (see Books' canonical ISBN).
public struct UpstreamRequest: Sendable {
    /// Absolute `http` or `https` URL.
    public var url: String
    /// Extra request headers, e.g. `Accept`. The client adds `User-Agent` itself.
    public var headers: [UpstreamHeader]
    /// Provider name (`coinbase`, `google-books`, …) for metrics, logs and error messages.
    public var provider: String
    /// Overrides `upstream.maxResponseBytes` for this request (covers use `books.maxCoverBytes`).
    public var maxResponseBytes: Int?
    /// Query parameter names whose values are secrets (`key`): redacted wherever the URL is logged.
    public var secretQueryParameters: Set<String>
    /// `.never` (the default, every API call): a 3xx fails as `.redirected`. `.within(policy)`
    /// (covers): the URL and each of at most `maxRedirects` hops must pass the policy, checked
    /// before any connection is made to it (`.invalidURL` / `.redirected` otherwise).
    public var redirects: RedirectRule

    public init(url: String, headers: [UpstreamHeader] = [], provider: String,
                maxResponseBytes: Int? = nil, secretQueryParameters: Set<String> = [],
                redirects: RedirectRule = .never) {
        self.url = url
        self.headers = headers
        self.provider = provider
        self.maxResponseBytes = maxResponseBytes
        self.secretQueryParameters = secretQueryParameters
        self.redirects = redirects
    }
}

extension UpstreamRequest {
    /// Masks this request's secrets (`secretQueryParameters` besides the usual secret names).
    public var redactor: Redactor { Redactor(parameters: secretQueryParameters) }

    /// The URL with its secrets masked (`Redactor`): the form logs and errors may show.
    public var redactedURL: String { redactor.redact(url) }
}

public struct UpstreamHeader: Sendable, Equatable {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// An upstream's answer. Any status is a value (a 404 from Open Library is an answer, not a
/// failure); only transport-level problems throw `UpstreamError`.
public struct UpstreamResponse: Sendable {
    public var status: Int
    /// Response header fields with lower-cased names (last value wins for duplicates).
    public var headers: [String: String]
    public var body: [UInt8]
    /// The URL that produced the body, after redirects (for host checks on covers).
    public var effectiveURL: String

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = [], effectiveURL: String = "") {
        self.status = status
        var lowered: [String: String] = [:]
        for (k, v) in headers { lowered[k.lowercased()] = v }
        self.headers = lowered
        self.body = body
        self.effectiveURL = effectiveURL
    }

    /// Case-insensitive header lookup.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Why an upstream call failed, in categories that map to 502 or 504.
///
/// Two audiences: `detail` is the cause as a client may read it (`HTTP 503`, `timed out after
/// 5000 ms`, `field data.rates: expected an object`, `redirected`) and never holds an upstream
/// URL, host or port; `diagnostic` and `url` are for the operator's log line only (libcurl's
/// own message, the refused location, the redacted URL).
public struct UpstreamError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        case dns, connectionRefused, connectionReset, tls, timeout, tooLarge, malformed, truncated
        /// The upstream answered with a redirect that was not followed: any 3xx to an API call,
        /// or, for covers, a hop the host policy refused or one hop too many.
        case redirected
        case invalidURL, cancelled, other
    }

    public var kind: Kind
    public var provider: String
    /// The cause, safe to show a client: never a URL, host, port or secret.
    public var detail: String
    /// Everything else an operator needs (libcurl's message, the refused location); logged only.
    public var diagnostic: String
    /// The request's URL with secret parameters redacted; logged only.
    public var url: String?

    public init(_ kind: Kind, provider: String, detail: String, diagnostic: String = "", url: String? = nil) {
        self.kind = kind
        self.provider = provider
        self.detail = detail
        self.diagnostic = diagnostic
        self.url = url
    }

    /// This error with `url` set when it has none yet: providers attach the URL they asked to
    /// failures they detect themselves (a status, a malformed body), for the log line.
    public func at(_ url: String) -> UpstreamError {
        var error = self
        if error.url == nil { error.url = url }
        return error
    }

    /// True when the upstream did not answer in time: 504 rather than 502.
    public var isTimeout: Bool { kind == .timeout }

    /// `provider: cause`, as problem details show it, e.g. `coinbase: HTTP 503`,
    /// `open-library: malformed answer (field ISBN:….title: expected a string)`.
    public var publicDescription: String {
        switch kind {
        case .malformed where !detail.hasPrefix("malformed answer"):
            return "\(provider): malformed answer (\(detail))"
        default:
            return "\(provider): \(detail)"
        }
    }

    public var description: String { "\(provider): \(kind.rawValue): \(detail)" }
}

/// The one way services reach the network. `CurlHTTPClient` is the real one; tests use
/// `HTTPClientTestSupport`'s stub upstream server with the real client, or `StubHTTPClient`.
public protocol HTTPClient: Sendable {
    /// Performs a GET, with retries, timeouts and limits as configured. Throws `UpstreamError`
    /// (including `.cancelled` when the calling task is cancelled).
    func get(_ request: UpstreamRequest) async throws -> UpstreamResponse

    /// The same GET, with every attempt (retries included) admitted by `gate` and finished by
    /// `deadline` instead of the client's own `timeoutMs`: how the steward reaches the
    /// network. Time is read and waited on through the deadline's clock. Clients without retries of their own (test doubles) get the default: one
    /// attempt through the gate.
    func get(_ request: UpstreamRequest, deadline: UpstreamDeadline, gate: any AttemptGate) async throws -> UpstreamResponse
}

extension HTTPClient {
    public func get(_ request: UpstreamRequest, deadline: UpstreamDeadline, gate: any AttemptGate) async throws -> UpstreamResponse {
        try await RetryLoop.run(request, retries: 0, deadline: deadline, configuration: HTTPClientConfiguration(), gate: gate) { _ in
            do {
                return .success(try await get(request))
            } catch let error as UpstreamError {
                return .failure(error)
            } catch {
                return .failure(UpstreamError(Task.isCancelled ? .cancelled : .other, provider: request.provider, detail: String(describing: error)))
            }
        }
    }
}
