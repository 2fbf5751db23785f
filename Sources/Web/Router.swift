import HTTP1

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
    /// A registered route. A class: a match hands the same route to the pipeline's context
    /// and steps on every request, and a reference is retained once where a value's two
    /// strings were retained and released at each copy.
    public final class Route: Sendable, Equatable {
        public let method: String
        public let pattern: String
        /// Part of the public API, for browsers on other origins too (CORS applies).
        public let isPublic: Bool

        public init(method: String, pattern: String, isPublic: Bool = false) {
            self.method = method
            self.pattern = pattern
            self.isPublic = isPublic
        }

        public static func == (lhs: Route, rhs: Route) -> Bool {
            lhs.method == rhs.method && lhs.pattern == rhs.pattern && lhs.isPublic == rhs.isPublic
        }
    }

    /// A registered route, compiled. A class: the table holds references, so reading an
    /// entry while matching retains one object rather than copying each field.
    private final class Entry: Sendable {
        let route: Route
        let pattern: RoutePattern
        let handler: Handler
        /// `route.method`'s bytes, compared with the request's.
        let method: [UInt8]

        init(route: Route, pattern: RoutePattern, handler: @escaping Handler) {
            self.route = route
            self.pattern = pattern
            self.handler = handler
            method = Array(route.method.utf8)
        }
    }

    /// What the router checks of a route before touching it: trivial to copy, so scanning the
    /// candidates for a path retains nothing. A rooted path (starting with `/`) can match only
    /// when its first bytes agree with `headKey` under `headMask` (`RoutePattern.head`) and, for a
    /// route without placeholders, when its length is `literalLength`.
    private struct Candidate: Sendable {
        /// Index into `entries`.
        let index: Int
        /// The length of the route's whole literal path; -1 for a route with placeholders.
        let literalLength: Int
        let headKey: UInt64
        let headMask: UInt64

        /// Whether a rooted path of `count` bytes whose key is `pathKey` may match.
        @inline(__always)
        func admits(_ pathKey: UInt64, count: Int) -> Bool {
            pathKey & headMask == headKey && (literalLength < 0 || literalLength == count)
        }
    }

    private var entries: [Entry] = []
    /// For each segment count (a path has one segment per `/`), the patterns with that many
    /// segments, in registration order: the only ones a path of that count can match, so a
    /// request is compared with a handful of patterns, not all of them.
    private var bySegmentCount = CandidateTable()
    /// For each byte count, the patterns without placeholders whose path is that long, in
    /// registration order: a path equal to one of them, with its method, is answered by the
    /// first such route (nothing is more specific), after comparing it with the one or two
    /// literal routes of its length, before its segments are even counted.
    private var literalsByLength = CandidateTable()

    /// Candidates filed under a small number (a segment count, a length), all in one array:
    /// the ones under `n` are `candidates[starts[n]..<starts[n + 1]]`. One flat array rather
    /// than an array per number, so reading a group retains nothing.
    private struct CandidateTable: Sendable {
        private(set) var candidates: [Candidate] = []
        private var starts: [Int] = [0]

        /// Files `candidate` under `number`, after the ones already there.
        mutating func add(_ candidate: Candidate, under number: Int) {
            while starts.count < number + 2 { starts.append(candidates.count) }
            candidates.insert(candidate, at: starts[number + 1])
            for later in (number + 1)..<starts.count { starts[later] += 1 }
        }

        /// The positions in `candidates` of those filed under `number` (none past the table).
        func range(_ number: Int) -> Range<Int> {
            guard number >= 0, number + 1 < starts.count else { return 0..<0 }
            return starts[number]..<starts[number + 1]
        }
    }

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
        let entry = Entry(route: Route(method: method, pattern: pattern, isPublic: isPublic),
                          pattern: RoutePattern(pattern), handler: handler)
        let compiled = entry.pattern
        let candidate = Candidate(index: entries.count, literalLength: compiled.literalPath?.count ?? -1,
                                  headKey: compiled.headKey, headMask: compiled.headMask)
        bySegmentCount.add(candidate, under: compiled.segments.count)
        if let literalPath = compiled.literalPath { literalsByLength.add(candidate, under: literalPath.count) }
        entries.append(entry)
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

    /// Matches on the path's bytes, in place (`RoutePattern`). Among the routes whose pattern
    /// matches and whose method is `method` (or GET, for HEAD), the one with the most literal
    /// segments wins, the earliest registered on a tie; so a fully literal route beats any
    /// placeholder route, and `/v1/books/{isbn}/cover` beats `/v1/books/{isbn}/{other}`.
    public func match(method: String, path: String) -> Match {
        if let entry = literalEntry(identicalTo: path, method: method) {
            return .found(entry.route, RouteParameters(), entry.handler)
        }
        if let match = path.utf8.withContiguousStorageIfAvailable({ match(method, path: path, bytes: $0) }) {
            return match
        }
        // A bridged string without contiguous UTF-8: copy once.
        return Array(path.utf8).withUnsafeBufferPointer { match(method, path: path, bytes: $0) }
    }

    /// The first literal route answering `method` whose path text is `path` itself, bit for bit
    /// (`IdenticalStrings`): a short path (as `/v1/rates` is) and the route's text both live
    /// inside their `String`s, so an equal path is usually the same bits, and is routed
    /// without lending its bytes. Exact and in registration order: every literal route of a
    /// path's length up to 15 bytes holds its text inline, made the same way, so the routes with
    /// the path's bytes are all, or none, the path's bits; with none, nil, and the bytes decide.
    private func literalEntry(identicalTo path: String, method: String) -> Entry? {
        let count = path.utf8.count
        guard count <= 15 else { return nil }
        for position in literalsByLength.range(count) {
            let entry = entries[literalsByLength.candidates[position].index]
            if let text = entry.pattern.literalText, IdenticalStrings.identical(path, text), Router.answers(method, entry) {
                return entry
            }
        }
        return nil
    }

    private func match(_ method: String, path: String, bytes: UnsafeBufferPointer<UInt8>) -> Match {
        // Only a path that starts with `/` equals a literal path, and only such a path is
        // checked against a route's key: a pattern's head starts with `/`.
        let rooted = bytes.first == UInt8(ascii: "/")
        let pathKey = RoutePattern.key(bytes)
        if rooted {
            for position in literalsByLength.range(bytes.count) {
                let candidate = literalsByLength.candidates[position]
                guard candidate.admits(pathKey, count: bytes.count) else { continue }
                let entry = entries[candidate.index]
                if let literalPath = entry.pattern.literalPath, Router.equal(bytes, literalPath), Router.answers(method, entry) {
                    return .found(entry.route, RouteParameters(), entry.handler)
                }
            }
        }
        return matchBySegments(method, path: path, bytes: bytes, rooted: rooted, pathKey: pathKey)
    }

    /// Every route of the path's segment count, compared in turn: the most specific that
    /// answers the method, else the methods that would have (405), else 404. Apart from the
    /// literal lookup above, so that a literal hit runs none of this function's bookkeeping.
    @inline(never)
    private func matchBySegments(_ method: String, path: String, bytes: UnsafeBufferPointer<UInt8>, rooted: Bool,
                                 pathKey: UInt64) -> Match {
        let candidates = bySegmentCount.range(RoutePattern.segmentCount(bytes))
        guard !candidates.isEmpty else { return .notFound }
        var allowed: [String] = []
        var best: Entry?
        var bestParameters = RouteParameters()
        for position in candidates {
            let candidate = bySegmentCount.candidates[position]
            if rooted, !candidate.admits(pathKey, count: bytes.count) { continue }
            let entry = entries[candidate.index]
            let parameters: RouteParameters
            // A rooted path matches a pattern without placeholders exactly when it is that
            // pattern's bytes: no walk.
            if rooted, let literalPath = entry.pattern.literalPath {
                guard Router.equal(bytes, literalPath) else { continue }
                parameters = RouteParameters()
            } else {
                guard let matched = entry.pattern.match(bytes, of: path) else { continue }
                parameters = matched
            }
            guard Router.answers(method, entry) else {
                allowed.append(entry.route.method)
                continue
            }
            // The most literal segments win; on a tie the earlier route.
            if let current = best, entry.pattern.literalCount <= current.pattern.literalCount { continue }
            best = entry
            bestParameters = parameters
        }
        if let best {
            return .found(best.route, bestParameters, best.handler)
        }
        if allowed.isEmpty { return .notFound }
        var allow = Set(allowed)
        if allow.contains("GET") { allow.insert("HEAD") }
        return .methodNotAllowed(allow: allow.sorted())
    }

    /// Whether `entry` answers `method` (GET answers HEAD). The request's method is usually
    /// the route's own spelling, bit for bit (`IdenticalStrings`); otherwise the bytes decide.
    private static func answers(_ method: String, _ entry: Entry) -> Bool {
        if IdenticalStrings.identical(method, entry.route.method) { return true }
        var method = method
        return method.withUTF8 { method in
            Router.equal(method, entry.method) || (Router.equal(method, Router.head) && entry.method == Router.get)
        }
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

    private static let head = Array("HEAD".utf8)
    private static let get = Array("GET".utf8)

    /// Method tokens and paths compared as the bytes they are (tokens are case-sensitive,
    /// RFC 9110 §9.1).
    private static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: [UInt8]) -> Bool {
        RoutePattern.equal(a, 0, a.count, b)
    }
}
