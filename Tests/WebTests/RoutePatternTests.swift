import Testing
import TestSupport
import HTTP1
@testable import Web

/// The byte matcher (`RoutePattern`, `Router.match`, `RouteParameters`) without sockets:
/// each case directly, then every route pattern almanac registers checked against a
/// reference matcher that splits paths into strings, as the router once did.
@Suite struct RoutePatternTests {
    /// Every pattern almanac registers (and the ones being added), in registration order.
    static let patterns: [(String, String)] = [
        ("GET", "/healthz"), ("GET", "/readyz"), ("GET", "/metrics"), ("GET", "/openapi.json"),
        ("GET", "/admin/upstreams"), ("GET", "/admin/cache"), ("DELETE", "/admin/cache"),
        ("DELETE", "/admin/cache/{namespace}"),
        ("GET", "/v1/rates"), ("GET", "/v1/rates/{code}"), ("GET", "/v1/convert"), ("GET", "/v1/currencies"),
        ("GET", "/v1/bpi/currentprice.json"), ("GET", "/v1/bpi/currentprice/{code}.json"),
        ("GET", "/v1/bpi/supported-currencies.json"), ("GET", "/v1/bpi/historical/close.json"),
        ("GET", "/v1/rates/history"), ("GET", "/v1/index"),
        ("GET", "/v1/books"), ("GET", "/v1/books/{isbn}"), ("GET", "/v1/books/{isbn}/cover"),
        ("GET", "/v1/books/search"), ("GET", "/books/v1/volumes"), ("GET", "/books/v1/volumes/{id}"),
    ]

    static func router() -> Router {
        var router = Router()
        for (method, pattern) in patterns {
            router.add(method, pattern) { _, _ in .ready(HTTPResponse()) }
        }
        return router
    }

    /// The route pattern and parameters `path` is routed to, or "404", or "405 <Allow>".
    static func outcome(_ router: Router, _ method: String, _ path: String) -> String {
        switch router.match(method: method, path: path) {
        case let .found(route, parameters, _):
            return route.pattern + " " + parameters.values.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                .map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        case let .methodNotAllowed(allow): return "405 " + allow.joined(separator: ",")
        case .notFound: return "404"
        }
    }

    @Test func literalSegmentsAreComparedAsBytes() {
        let router = Self.router()
        #expect(Self.outcome(router, "GET", "/v1/rates") == "/v1/rates ")
        #expect(Self.outcome(router, "GET", "/v1/Rates") == "404", "no case folding")
        #expect(Self.outcome(router, "GET", "/v1/rate%73") == "404", "literals are not percent-decoded")
        // "é" precomposed vs e + U+0301: canonically equal as Strings, different bytes.
        var accented = Router()
        accented.get("/caf\u{E9}") { _, _ in .ready(HTTPResponse()) }
        #expect(Self.outcome(accented, "GET", "/caf\u{E9}") == "/caf\u{E9} ")
        #expect(Self.outcome(accented, "GET", "/cafe\u{301}") == "404")
    }

    @Test func parametersAreByteRangesDecodedOnRead() {
        let router = Self.router()
        #expect(Self.outcome(router, "GET", "/v1/books/978%2D0306406157") == "/v1/books/{isbn} isbn=978-0306406157")
        #expect(Self.outcome(router, "GET", "/v1/books/caf%C3%A9") == "/v1/books/{isbn} isbn=caf\u{E9}")
        #expect(Self.outcome(router, "GET", "/v1/books/%FF%zz") == "/v1/books/{isbn} isbn=\u{FFFD}%zz")
        #expect(Self.outcome(router, "GET", "/v1/books/\u{661}\u{662}") == "/v1/books/{isbn} isbn=\u{661}\u{662}")
        #expect(Self.outcome(router, "GET", "/v1/bpi/currentprice/%47BP.json") == "/v1/bpi/currentprice/{code}.json code=GBP")
        #expect(Self.outcome(router, "GET", "/v1/bpi/currentprice/.json") == "404", "an empty value does not match")
    }

    /// `withBytes` hands over exactly the bytes of the decoded value: in place without `%`,
    /// decoded (invalid UTF-8 replaced) with it.
    @Test func withBytesMatchesTheDecodedText() {
        let router = Self.router()
        for path in ["/v1/books/9780767908177", "/v1/books/978%2D07679", "/v1/books/%C3%A9%FF", "/v1/books/\u{E9}x"] {
            guard case let .found(_, parameters, _) = router.match(method: "GET", path: path) else {
                Issue.record("\(path) not found")
                continue
            }
            let bytes = parameters.withBytes("isbn") { Array($0) }
            #expect(bytes == parameters["isbn"].map { Array($0.utf8) }, "\(path)")
            #expect(parameters.withBytes("nope") { _ in true } == nil)
        }
        let given = RouteParameters(["isbn": "0306406152"])
        #expect(given.withBytes("isbn") { Array($0) } == Array("0306406152".utf8))
    }

    /// Slashes counted eight bytes at a time agree with a byte-by-byte count, at every length
    /// and alignment, with bytes that differ from `/` in one bit (`.`, `o`, 0xAF) or are zero.
    @Test func segmentCountAgreesWithCountingBytes() {
        var rng = SplitMix64(seed: 47)
        let alphabet: [UInt8] = [0x2F, 0x2F, 0x2E, 0x6F, 0xAF, 0x00, 0xFF, 0x61]
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...40, using: &rng)
            let bytes = (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] }
            let expected = bytes.filter { $0 == 0x2F }.count
            #expect(bytes.withUnsafeBufferPointer { RoutePattern.segmentCount($0) } == expected, "\(bytes)")
        }
    }

    /// A short path routes alike whether its text lives inside the `String` (as the router's
    /// own texts do, compared by their bits) or on the heap (compared by bytes): same route,
    /// same 405, for every method, registration order kept between routes of one path.
    @Test func shortPathsRouteAlikeInlineAndOnTheHeap() {
        let router = Self.router()
        for path in ["/v1/rates", "/admin/cache", "/healthz", "/v1/index", "/v1/rate", "/v1/ratez", "", "/"] {
            var onHeap = String()
            onHeap.reserveCapacity(64)
            onHeap += path
            for method in ["GET", "HEAD", "DELETE", "POST"] {
                #expect(Self.outcome(router, method, onHeap) == Self.outcome(router, method, path), "\(method) \(path)")
                #expect(Self.outcome(router, method, path) == ReferenceMatcher.outcome(Self.patterns, method, path),
                        "\(method) \(path)")
            }
        }
        var twice = Router()
        twice.get("/same") { _, _ in .ready(HTTPResponse(status: .ok)) }
        twice.get("/same") { _, _ in .ready(HTTPResponse(status: .noContent)) }
        guard case let .found(_, _, handler) = twice.match(method: "GET", path: "/same"),
              case let .ready(response) = handler(HTTPRequest(method: "GET", target: "/same"), RouteParameters()) else {
            Issue.record("/same not found")
            return
        }
        #expect(response.status == .ok, "the earlier of two equal routes answers")
    }

    /// A route without placeholders captures nothing (its parameters hold no storage), whether
    /// the path reached it by the literal table or, not starting with `/`, by a walk.
    @Test func parameterlessRoutesCaptureNothing() {
        let router = Self.router()
        for path in ["/v1/rates", "x/v1/rates", "/v1/books/search"] {
            guard case let .found(_, parameters, _) = router.match(method: "GET", path: path) else {
                Issue.record("\(path) not found")
                continue
            }
            #expect(parameters.values.isEmpty, "\(path)")
            #expect(parameters["isbn"] == nil && parameters.withBytes("isbn") { _ in true } == nil, "\(path)")
        }
        #expect(RouteParameters() == RouteParameters([:]))
        #expect(RouteParameters(["isbn": "1"])["isbn"] == "1")
    }

    @Test func trailingSlashesAndEmptySegmentsAreSegments() {
        let router = Self.router()
        #expect(Self.outcome(router, "GET", "/v1/rates/") == "404", "an empty placeholder value does not match")
        #expect(Self.outcome(router, "GET", "/v1/books/x/cover/") == "404")
        #expect(Self.outcome(router, "GET", "/v1//rates") == "404")
        #expect(Self.outcome(router, "GET", "//v1/rates") == "404")
        #expect(Self.outcome(router, "GET", "/") == "404")
        #expect(Self.outcome(router, "GET", "") == "404")
        #expect(Self.outcome(router, "GET", "/v1/rates/a/b/c/d/e/f/g/h") == "404")
        var root = Router()
        root.get("/") { _, _ in .ready(HTTPResponse()) }
        root.get("/a/") { _, _ in .ready(HTTPResponse()) }
        #expect(Self.outcome(root, "GET", "/") == "/ ")
        #expect(Self.outcome(root, "GET", "/a/") == "/a/ ")
        #expect(Self.outcome(root, "GET", "/a") == "404")
    }

    @Test func mostLiteralRouteWinsThenTheEarliest() {
        let router = Self.router()
        #expect(Self.outcome(router, "GET", "/v1/books/search") == "/v1/books/search ")
        #expect(Self.outcome(router, "GET", "/v1/rates/history") == "/v1/rates/history ")
        #expect(Self.outcome(router, "HEAD", "/v1/books/search") == "/v1/books/search ")
        #expect(Self.outcome(router, "GET", "/admin/cache/rates") == "405 DELETE")
        #expect(Self.outcome(router, "POST", "/admin/cache") == "405 DELETE,GET,HEAD")
        var twice = Router()
        twice.get("/x/{a}/{a}") { _, _ in .ready(HTTPResponse()) }
        twice.get("/x/{b}/{c}") { _, _ in .ready(HTTPResponse()) }
        #expect(Self.outcome(twice, "GET", "/x/1/2") == "/x/{a}/{a} a=2", "a repeated name keeps the later value")
    }

    /// Every registered pattern, against paths made from every pattern (placeholders filled with
    /// plain, encoded, non-ASCII and empty values; slashes added and removed) and a few methods:
    /// the byte matcher routes exactly as the reference matcher.
    @Test func everyPatternRoutesAsTheReferenceMatcher() {
        let router = Self.router()
        let fills = ["EUR", "9780767908177", "978%2D0767", "%E2%82%AC", "\u{E9}", "search", "cover", ""]
        var paths: Set<String> = []
        for (_, pattern) in Self.patterns {
            for fill in fills {
                let path = ReferenceMatcher.fill(pattern, with: fill)
                paths.formUnion([path, path + "/", path + "/x", "/" + path, "x" + path, String(decoding: path.utf8.dropLast(), as: UTF8.self),
                                 path.split(separator: "/", omittingEmptySubsequences: false).joined(separator: "//")])
            }
        }
        var checked = 0
        for path in paths.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            for method in ["GET", "HEAD", "DELETE", "POST"] {
                let expected = ReferenceMatcher.outcome(Self.patterns, method, path)
                #expect(Self.outcome(router, method, path) == expected, "\(method) \(path)")
                checked += 1
            }
        }
        #expect(checked > 1000)
    }
}

/// The router's matching as it was before it matched bytes (split into `Substring`s, every
/// route tried): the reference the byte matcher must agree with.
enum ReferenceMatcher {
    static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
    }

    /// `pattern` with each `{…}` placeholder replaced by `value`.
    static func fill(_ pattern: String, with value: String) -> String {
        "/" + split(pattern).map { segment -> String in
            guard let open = segment.firstIndex(of: "{"), let close = segment.firstIndex(of: "}") else { return String(segment) }
            return String(segment[..<open]) + value + String(segment[segment.index(after: close)...])
        }.joined(separator: "/")
    }

    static func match(_ pattern: String, _ path: String) -> (values: [String: String], literals: Int)? {
        let patternSegments = split(pattern), pathSegments = split(path)
        guard patternSegments.count == pathSegments.count else { return nil }
        var values: [String: String] = [:]
        var literals = 0
        for (segment, actual) in zip(patternSegments, pathSegments) {
            guard let open = segment.firstIndex(of: "{"), let close = segment.firstIndex(of: "}"), open < close else {
                guard actual.utf8.elementsEqual(segment.utf8) else { return nil }
                literals += 1
                continue
            }
            let prefix = segment[..<open].utf8, suffix = segment[segment.index(after: close)...].utf8
            let bytes = actual.utf8
            guard bytes.count > prefix.count + suffix.count, bytes.starts(with: prefix),
                  bytes.reversed().starts(with: suffix.reversed()) else { return nil }
            values[String(segment[segment.index(after: open)..<close])] =
                QueryString.percentDecode(bytes.dropFirst(prefix.count).dropLast(suffix.count), plusIsSpace: false)
        }
        return (values, literals)
    }

    static func outcome(_ patterns: [(String, String)], _ method: String, _ path: String) -> String {
        var best: (pattern: String, values: [String: String], literals: Int)?
        var allowed: Set<String> = []
        for (routeMethod, pattern) in patterns {
            guard let (values, literals) = match(pattern, path) else { continue }
            if routeMethod.utf8.elementsEqual(method.utf8) || (method == "HEAD" && routeMethod == "GET") {
                if literals > best?.literals ?? -1 { best = (pattern, values, literals) }
            } else {
                allowed.insert(routeMethod)
            }
        }
        if let best {
            return best.pattern + " " + best.values.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                .map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        }
        if allowed.isEmpty { return "404" }
        if allowed.contains("GET") { allowed.insert("HEAD") }
        return "405 " + allowed.sorted().joined(separator: ",")
    }
}
