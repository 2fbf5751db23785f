import HTTP1

/// Values captured from a route pattern's `{name}` placeholders, percent-decoded.
///
/// A match records where each value lies in the request's path (byte offsets into the path
/// the router was given) rather than building strings: a cached hit on `/v1/books/{isbn}` then
/// costs what a literal route's hit costs, and a handler that parses its parameter from bytes
/// (`withBytes`) never makes a `String` of it. The first capture is held inline, because no
/// route has more than one placeholder today and an array would cost an allocation per hit.
/// Decoding (`%XX`, invalid UTF-8 replaced by U+FFFD) happens when a value is read, with the
/// same result as decoding it at match time.
public struct RouteParameters: Sendable, Equatable {
    /// Where one placeholder's value lies in `path`: byte offsets, still percent-encoded.
    @usableFromInline
    struct Capture: Sendable {
        @usableFromInline var name: String
        @usableFromInline var start: Int
        @usableFromInline var end: Int
    }

    /// The path the captures point into (shares the request's storage; no copy).
    @usableFromInline private(set) var path: String = ""
    @usableFromInline private(set) var first: Capture?
    @usableFromInline private(set) var more: [Capture] = []
    /// Values given as text (`init(_:)`, for tests and handlers called directly).
    @usableFromInline private(set) var given: [String: String] = [:]

    public init(_ values: [String: String] = [:]) { given = values }

    /// Parameters to be captured from `path` by the router.
    init(capturingFrom path: String) { self.path = path }

    /// Records a placeholder's value as `path`'s bytes `start..<end`. A name captured twice keeps
    /// the later value, as a dictionary would.
    mutating func capture(_ name: String, start: Int, end: Int) {
        let capture = Capture(name: name, start: start, end: end)
        if first == nil { first = capture } else { more.append(capture) }
    }

    /// The value of placeholder `name`, percent-decoded, or nil when the route has no such placeholder.
    public subscript(name: String) -> String? {
        if let capture = capture(named: name) { return decoded(capture) }
        return given[name]
    }

    /// Every value by name (a copy; for tests and diagnostics, not the hit path).
    public var values: [String: String] {
        var all = given
        if let first { all[first.name] = decoded(first) }
        for capture in more { all[capture.name] = decoded(capture) }
        return all
    }

    /// Calls `body` with the percent-decoded UTF-8 of placeholder `name` (exactly the bytes of
    /// `self[name]`), or returns nil when there is no such placeholder. A value without `%`
    /// is handed over in place, from the path's own storage: no copy, no `String`. Inlinable,
    /// so a handler's call is specialised for its closure (called generically from another
    /// module it cost ~1,700 more instructions per cached book hit).
    @inlinable
    public func withBytes<Answer>(_ name: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> Answer) rethrows -> Answer? {
        guard let capture = capture(named: name) else {
            guard let text = given[name] else { return nil }
            return try Array(text.utf8).withUnsafeBufferPointer(body)
        }
        let inPlace: Answer?? = try path.utf8.withContiguousStorageIfAvailable { pathBytes in
            let bytes = UnsafeBufferPointer(rebasing: pathBytes[capture.start..<capture.end])
            guard !bytes.contains(UInt8(ascii: "%")) else { return nil }
            return try body(bytes)
        }
        if let inPlace, let result = inPlace { return result }
        return try Array(decoded(capture).utf8).withUnsafeBufferPointer(body)
    }

    public static func == (lhs: RouteParameters, rhs: RouteParameters) -> Bool { lhs.values == rhs.values }

    /// The capture for `name`, the latest one when a name repeats. Names are compared as bytes.
    @usableFromInline
    func capture(named name: String) -> Capture? {
        for capture in more.reversed() where RouteParameters.sameBytes(capture.name, name) { return capture }
        if let first, RouteParameters.sameBytes(first.name, name) { return first }
        return nil
    }

    /// Whether two names are the same bytes, compared in place.
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        let inPlace = a.utf8.withContiguousStorageIfAvailable { aBytes in
            b.utf8.withContiguousStorageIfAvailable { bBytes in aBytes.elementsEqual(bBytes) }
        }
        return (inPlace ?? nil) ?? a.utf8.elementsEqual(b.utf8)
    }

    @usableFromInline
    func decoded(_ capture: Capture) -> String {
        let utf8 = path.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: capture.start)
        let end = utf8.index(utf8.startIndex, offsetBy: capture.end)
        return QueryString.percentDecode(utf8[start..<end], plusIsSpace: false)
    }
}
