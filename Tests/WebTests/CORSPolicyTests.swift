import TestSupport
import Testing
import HTTP1
@testable import Web

/// `CORSPolicy` as pure logic: which headers an answer gets, how a preflight is decided, how
/// configured origins are normalized.
@Suite struct CORSPolicyTests {
    private let any = CORSPolicy(allowedOrigins: ["*"])
    private let listed = CORSPolicy(allowedOrigins: ["https://widget.example", "http://localhost:3000"])

    private func applied(_ policy: CORSPolicy, origin: String?) -> [String] {
        var headers = HTTPHeaders()
        var request = HTTPHeaders()
        if let origin { request.add("Origin", origin) }
        policy.apply(to: &headers, requestHeaders: request)
        return headers.map { "\($0.name): \($0.value)" }
    }

    @Test func anyOriginIsTheSameAnswerForEveryone() {
        let expected = ["Access-Control-Allow-Origin: *",
                        "Access-Control-Expose-Headers: ETag, Age, X-Cache, Cache-Status, X-Request-ID"]
        #expect(applied(any, origin: "https://anywhere.example") == expected)
        #expect(applied(any, origin: nil) == expected, "no Origin: same headers, so no Vary is needed")
        #expect(any.origins == .any)
    }

    /// Two `Origin` lines: which one counts is a guess, so no origin is admitted, even when
    /// both are listed.
    @Test func twoOriginFieldsAdmitNone() {
        var headers = HTTPHeaders()
        var request = HTTPHeaders()
        request.add("Origin", "https://widget.example")
        request.add("Origin", "https://evil.example")
        listed.apply(to: &headers, requestHeaders: request)
        #expect(headers.map { "\($0.name): \($0.value)" } == ["Vary: Origin"])
        #expect(CORSPolicy.soleOrigin(request) == nil)
        request.remove("Origin")
        request.add("Origin", "https://widget.example")
        #expect(CORSPolicy.soleOrigin(request) == "https://widget.example")
    }

    @Test func aListEchoesAListedOriginAndVaries() {
        #expect(applied(listed, origin: "https://widget.example") == [
            "Vary: Origin", "Access-Control-Allow-Origin: https://widget.example",
            "Access-Control-Expose-Headers: ETag, Age, X-Cache, Cache-Status, X-Request-ID"])
        // Matched without regard to ASCII case, echoed as sent (browsers compare bytes).
        #expect(applied(listed, origin: "https://WIDGET.example").contains("Access-Control-Allow-Origin: https://WIDGET.example"))
        #expect(applied(listed, origin: "https://evil.example") == ["Vary: Origin"])
        #expect(applied(listed, origin: "https://widget.example.evil.example") == ["Vary: Origin"])
        #expect(applied(listed, origin: "null") == ["Vary: Origin"])
        #expect(applied(listed, origin: nil) == ["Vary: Origin"])
        #expect(applied(CORSPolicy(allowedOrigins: []), origin: "https://widget.example") == ["Vary: Origin"])
        #expect(CORSPolicy.maxAddedFields >= applied(listed, origin: "https://widget.example").count)
    }

    @Test func preflightGrantsSafeReadsOnly() {
        #expect(any.preflight(origin: "https://a.example", method: "GET", requestedHeaders: []) == .granted(origin: "*", headers: ""))
        #expect(any.preflight(origin: "https://a.example", method: "HEAD",
                              requestedHeaders: ["If-None-Match, x-request-id", " accept ,if-none-match"])
                == .granted(origin: "*", headers: "if-none-match, x-request-id, accept"))
        #expect(listed.preflight(origin: "http://localhost:3000", method: "GET", requestedHeaders: ["cache-control"])
                == .granted(origin: "http://localhost:3000", headers: "cache-control"))

        guard case let .refused(method) = any.preflight(origin: "https://a.example", method: "POST", requestedHeaders: []) else {
            Issue.record("POST granted")
            return
        }
        #expect(method.contains("\"POST\"") && method.contains("read-only"))
        guard case let .refused(header) = any.preflight(origin: "https://a.example", method: "GET",
                                                         requestedHeaders: ["accept, Authorization"]) else {
            Issue.record("Authorization granted")
            return
        }
        #expect(header.contains("\"authorization\""))
        guard case let .refused(origin) = listed.preflight(origin: "https://evil.example", method: "GET", requestedHeaders: []) else {
            Issue.record("unlisted origin granted")
            return
        }
        #expect(origin.contains("\"https://evil.example\""))
        guard case .refused = listed.preflight(origin: nil, method: "GET", requestedHeaders: []) else {
            Issue.record("no origin granted")
            return
        }
        // Methods are case-sensitive (RFC 9110 §9.1); browsers upper-case get/head themselves.
        guard case .refused = any.preflight(origin: "https://a.example", method: "get", requestedHeaders: []) else {
            Issue.record("lower-case get granted")
            return
        }
    }

    @Test func optionsAnswers() {
        let preflight = HTTPRequest(method: "OPTIONS", target: "/v1/rates", headers: [
            "Origin": "https://a.example", "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "if-none-match",
        ])
        let granted = any.answerOptions(preflight)
        #expect(granted.status == .noContent)
        #expect(granted.body.isEmpty)
        #expect(granted.headers["Allow"] == "GET, HEAD, OPTIONS")
        #expect(granted.headers["Access-Control-Allow-Origin"] == "*")
        #expect(granted.headers["Access-Control-Allow-Methods"] == "GET, HEAD")
        #expect(granted.headers["Access-Control-Allow-Headers"] == "if-none-match")
        #expect(granted.headers["Access-Control-Max-Age"] == "86400")
        #expect(granted.headers["Vary"] == "Origin, Access-Control-Request-Method, Access-Control-Request-Headers")

        var refusedRequest = preflight
        refusedRequest.headers.set("Access-Control-Request-Method", "DELETE")
        let refused = any.answerOptions(refusedRequest)
        #expect(refused.status == .forbidden)
        #expect(refused.headers["Content-Type"] == "application/problem+json")
        #expect(refused.headers["Access-Control-Allow-Origin"] == nil)
        #expect(String(decoding: refused.body, as: UTF8.self).hasPrefix(#"{"type":"about:blank","title":"Forbidden""#))
        let typed = CORSPolicy(allowedOrigins: ["*"], problemTypes: ProblemTypes(base: "https://example.org/p#"))
            .answerOptions(refusedRequest)
        #expect(String(decoding: typed.body, as: UTF8.self)
            .hasPrefix(#"{"type":"https://example.org/p#cors-preflight-refused","title":"CORS preflight refused""#))

        let plain = listed.answerOptions(HTTPRequest(method: "OPTIONS", target: "/v1/rates"))
        #expect(plain.status == .noContent)
        #expect(plain.headers["Allow"] == "GET, HEAD, OPTIONS")
        #expect(plain.headers["Access-Control-Allow-Methods"] == nil)
    }

    @Test(arguments: [
        ("https://app.example.com", "https://app.example.com"),
        ("HTTPS://App.Example.COM", "https://app.example.com"),
        ("https://app.example.com:443", "https://app.example.com"),
        ("http://app.example.com:80", "http://app.example.com"),
        ("http://localhost:3000", "http://localhost:3000"),
        ("https://127.0.0.1:8443", "https://127.0.0.1:8443"),
        ("https://[::1]:8443", "https://[::1]:8443"),
        ("https://xn--bcher-kva.example", "https://xn--bcher-kva.example"),
    ])
    func originsAreNormalized(input: String, normalized: String) {
        #expect(CORSPolicy.normalizedOrigin(input) == normalized)
    }

    @Test(arguments: ["https://app.example.com/", "https://app.example.com/path", "null", "*", "", "app.example.com",
                      "ftp://app.example.com", "https://user@app.example.com", "https://app.example.com?x=1",
                      "https://", "https://:443", "https://app.example.com:0", "https://app.example.com:65536",
                      "https://app.example.com:12a", "https://bücher.example", "https://a b.example", "https://.example",
                      "https://[zz]", "https://[]"])
    func badOriginsAreRefused(input: String) {
        #expect(CORSPolicy.normalizedOrigin(input) == nil)
    }

    /// Any bytes a client can put in `Origin`, the method or the requested headers get an
    /// answer, never a trap: random strings of ASCII, control bytes, and multi-byte scalars
    /// (a digit followed by a combining mark is not a digit).
    @Test func arbitraryInputNeverTraps() {
        var rng = SplitMix64(seed: 0xC0125)
        let pieces = ["https://", "http://", ":", "[", "]", "/", ",", " ", "\t", "a", "Z", "0", "9", "-", ".",
                      "\u{301}", "é", "\u{0}", "ｈ", "GET", "HEAD", "if-none-match", "443", "65536", "*", "null"]
        for _ in 0..<2000 {
            func text() -> String {
                (0..<Int.random(in: 0...12, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "" }.joined()
            }
            let origin = text(), method = text(), headers = text()
            _ = CORSPolicy.normalizedOrigin(origin)
            for policy in [any, listed] {
                _ = policy.preflight(origin: origin, method: method, requestedHeaders: [headers])
                let request = HTTPRequest(method: "OPTIONS", target: "/", headers: [
                    "Origin": origin, "Access-Control-Request-Method": method, "Access-Control-Request-Headers": headers])
                let answer = policy.answerOptions(request)
                #expect(answer.status == .noContent || answer.status == .forbidden)
            }
        }
    }
}
