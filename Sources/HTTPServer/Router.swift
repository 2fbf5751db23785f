/// Values captured from a route pattern's `{name}` placeholders, percent-decoded.
public struct RouteParameters: Sendable, Equatable {
    public private(set) var values: [String: String] = [:]
    public init(_ values: [String: String] = [:]) { self.values = values }
    public subscript(name: String) -> String? { values[name] }
}

/// Maps method + path to handlers.
///
/// Patterns are `/`-separated; a segment is a literal (`rates`), a placeholder (`{code}`),
/// or a placeholder with a literal prefix/suffix (`{code}.json`, as CoinDesk's URLs have).
/// Literal segments win over placeholders, so `/v1/books/{isbn}/cover` and
/// `/v1/books/{isbn}` coexist. `HEAD` is answered by the `GET` handler (the server drops the
/// body, RFC 9110 §9.3.2). An unknown path is a 404 problem; a known path with another method
/// is a 405 problem carrying `Allow` (RFC 9110 §15.5.6). `OPTIONS *` asks about the server as
/// a whole (RFC 9110 §9.3.7): 204 with `Allow` listing every method some route answers.
///
/// A route registered with `public: true` declares itself readable by any web page that the
/// CORS policy admits (`CORSPolicy`): whoever serves the router applies the policy to exactly
/// those routes, so a new public endpoint gets CORS by saying so, and nothing else (admin,
/// metrics) ever does.
public struct Router: Sendable {
    public typealias Handler = @Sendable (HTTPRequest, RouteParameters) -> HTTPResponseFuture

    /// A registered route, as documentation and tests (OpenAPI agreement) see it.
    public struct Route: Sendable, Equatable {
        public var method: String
        public var pattern: String
        /// Part of the public API, for browsers on other origins too (CORS applies).
        public var isPublic: Bool = false
    }

    private struct Entry: Sendable {
        var route: Route
        var segments: [Segment]
        var handler: Handler
    }

    private enum Segment: Sendable {
        case literal(String)
        case parameter(name: String, prefix: String, suffix: String)
    }

    private var entries: [Entry] = []
    /// Patterns without placeholders, by the `/`-led path they match: the index into `entries` of each
    /// such route, per pattern, in registration order. A path equal to one of them can only be
    /// answered by those entries (a fully literal match beats any placeholder match), so the
    /// common case needs one hash lookup instead of splitting the path and trying every route.
    private var literalRoutes: [String: [Int]] = [:]

    /// How this router's own problems (404 `not-found`) are typed.
    public let problemTypes: ProblemTypes

    /// Writes a problem as one part of the API answers its errors (Google's error envelope on
    /// `/books/v1/*`) instead of problem+json.
    public typealias ProblemWriter = @Sendable (Problem) -> HTTPResponse

    /// Path prefixes whose 404 and 405 are written by their own `ProblemWriter`, so a client of
    /// an emulated API reads every error there, unknown routes included, in the one format it
    /// knows. The longest matching prefix wins.
    private var problemWriters: [(prefix: String, write: ProblemWriter)] = []

    /// Answers the router's own problems for paths starting with `prefix` (or equal to it
    /// without its trailing `/`) through `write`.
    public mutating func writeProblems(under prefix: String, with write: @escaping ProblemWriter) {
        problemWriters.append((prefix, write))
        problemWriters.sort { $0.prefix.utf8.count > $1.prefix.utf8.count }
    }

    /// The response for one of the router's own problems on `path`.
    private func response(_ problem: Problem, path: String) -> HTTPResponse {
        for writer in problemWriters {
            let prefix = writer.prefix.utf8
            if path.utf8.starts(with: prefix) || (prefix.last == UInt8(ascii: "/") && path.utf8.elementsEqual(prefix.dropLast())) {
                return writer.write(problem)
            }
        }
        return problem.response
    }

    /// - Parameter problemTypes: the application's problem types (its 404 is slug `not-found`);
    ///   by default `about:blank`.
    public init(problemTypes: ProblemTypes = .aboutBlank) { self.problemTypes = problemTypes }

    /// Every registered route in registration order.
    public var routes: [Route] { entries.map(\.route) }

    public mutating func add(_ method: String, _ pattern: String, public isPublic: Bool = false,
                             _ handler: @escaping Handler) {
        let segments = Router.compile(pattern)
        if segments.allSatisfy({ if case .literal = $0 { true } else { false } }) {
            // Keyed by the path that splits into exactly these segments.
            let key = "/" + segments.map { if case let .literal(text) = $0 { text } else { "" } }.joined(separator: "/")
            literalRoutes[key, default: []].append(entries.count)
        }
        entries.append(Entry(route: Route(method: method, pattern: pattern, isPublic: isPublic), segments: segments, handler: handler))
    }

    public mutating func get(_ pattern: String, public isPublic: Bool = false, _ handler: @escaping Handler) {
        add("GET", pattern, public: isPublic, handler)
    }
    public mutating func delete(_ pattern: String, _ handler: @escaping Handler) { add("DELETE", pattern, handler) }

    /// The outcome of matching a request against the table.
    public enum Match: Sendable {
        case found(Route, RouteParameters, Handler)
        case methodNotAllowed(allow: [String])
        case notFound
    }

    public func match(method: String, path: String) -> Match {
        // Fast path: an exact literal route with this method (or GET for HEAD). The first one
        // registered wins, as in the general loop (ties keep the earlier entry).
        if let candidates = literalRoutes[path] {
            for index in candidates {
                let entry = entries[index]
                if entry.route.method == method || (method == "HEAD" && entry.route.method == "GET") {
                    return .found(entry.route, RouteParameters(), entry.handler)
                }
            }
        }
        let pathSegments = Router.split(path)
        var allowed: [String] = []
        var best: (entry: Entry, params: RouteParameters, literals: Int)?
        for entry in entries {
            guard let (params, literals) = Router.match(entry.segments, pathSegments) else { continue }
            let methodMatches = entry.route.method == method || (method == "HEAD" && entry.route.method == "GET")
            if methodMatches {
                if best == nil || literals > best!.literals { best = (entry, params, literals) }
            } else {
                allowed.append(entry.route.method)
            }
        }
        if let best { return .found(best.entry.route, best.params, best.entry.handler) }
        if allowed.isEmpty { return .notFound }
        var allow = Set(allowed)
        if allow.contains("GET") { allow.insert("HEAD") }
        return .methodNotAllowed(allow: allow.sorted())
    }

    /// Every method some route answers, plus HEAD (with GET) and OPTIONS, sorted: the
    /// `Allow` of `OPTIONS *`.
    public var allowedMethods: [String] {
        var methods = Set(entries.map(\.route.method))
        if methods.contains("GET") { methods.insert("HEAD") }
        methods.insert("OPTIONS")
        return methods.sorted()
    }

    /// Routes `request` and runs its handler, or answers 404/405 as problem+json, or 204 to
    /// `OPTIONS *`.
    public func respond(to request: HTTPRequest) -> HTTPResponseFuture {
        if request.method == "OPTIONS" && request.target == "*" {
            return .ready(HTTPResponse(status: .noContent, headers: ["Allow": allowedMethods.joined(separator: ", ")]))
        }
        switch match(method: request.method, path: request.path) {
        case let .found(_, params, handler):
            return handler(request, params)
        case let .methodNotAllowed(allow):
            var response = self.response(Problem(status: .methodNotAllowed,
                                   detail: "\(EchoedInput.clipped(request.method)) is not allowed on \(EchoedInput.clipped(request.path, limit: 200)); allowed: \(allow.joined(separator: ", "))."), path: request.path)
            response.headers.set("Allow", allow.joined(separator: ", "))
            return .ready(response)
        case .notFound:
            return .ready(response(Problem(status: .notFound, slug: "not-found",
                                           detail: "No route matches \(EchoedInput.clipped(request.path, limit: 200)).",
                                           types: problemTypes), path: request.path))
        }
    }

    private static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
    }

    private static func compile(_ pattern: String) -> [Segment] {
        split(pattern).map { seg in
            guard let open = seg.firstIndex(of: "{"), let close = seg.firstIndex(of: "}"), open < close else {
                return .literal(String(seg))
            }
            return .parameter(name: String(seg[seg.index(after: open)..<close]),
                              prefix: String(seg[..<open]),
                              suffix: String(seg[seg.index(after: close)...]))
        }
    }

    private static func match(_ pattern: [Segment], _ path: [Substring]) -> (RouteParameters, Int)? {
        guard pattern.count == path.count else { return nil }
        var values: [String: String] = [:]
        var literals = 0
        for (seg, actual) in zip(pattern, path) {
            switch seg {
            // Bytes, not `Character`s: the parser admits only ASCII in a path, and a segment
            // compared by grapheme cluster could still differ in length from its bytes.
            case let .literal(lit):
                guard actual.utf8.elementsEqual(lit.utf8) else { return nil }
                literals += 1
            case let .parameter(name, prefix, suffix):
                let bytes = actual.utf8
                let prefixBytes = prefix.utf8, suffixBytes = suffix.utf8
                guard bytes.count > prefixBytes.count + suffixBytes.count,
                      bytes.starts(with: prefixBytes),
                      bytes.reversed().starts(with: suffixBytes.reversed()) else { return nil }
                let inner = bytes.dropFirst(prefixBytes.count).dropLast(suffixBytes.count)
                values[name] = QueryString.percentDecode(inner, plusIsSpace: false)
            }
        }
        return (RouteParameters(values), literals)
    }
}
