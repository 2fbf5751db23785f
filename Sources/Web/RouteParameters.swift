import HTTP1

/// Values captured from a route pattern's `{name}` placeholders, percent-decoded.
///
/// A match records where each value lies in the request's path (byte offsets into the path
/// the router was given) rather than building strings: a cached hit on `/v1/books/{isbn}` then
/// costs what a literal route's hit costs, and a handler that parses its parameter from bytes
/// (`withBytes`) never makes a `String` of it. Decoding (`%XX`, invalid UTF-8 replaced by
/// U+FFFD) happens when a value is read, with the same result as decoding it at match time.
///
/// Small to copy, because every hit copies and destroys it: the path, the first capture inline
/// (no route has more than one placeholder today, and its name is a short inline string), and
/// everything rarer (more captures, values given as text) behind one optional reference. A
/// parameterless route's parameters hold no storage at all; with a dictionary and an array
/// inline, each hit built an empty dictionary twice and retained four references per copy.
public struct RouteParameters: Sendable, Equatable {
    /// Where one placeholder's value lies in `path`: byte offsets, still percent-encoded.
    @usableFromInline
    struct Capture: Sendable {
        @usableFromInline var name: String
        @usableFromInline var start: Int
        @usableFromInline var end: Int
    }

    /// What few parameters have: captures after the first, and values given as text. Never
    /// changed once made (a change makes a new one), so copies of the parameters share it.
    @usableFromInline
    final class Rest: Sendable {
        @usableFromInline let more: [Capture]
        @usableFromInline let given: [String: String]

        init(more: [Capture], given: [String: String]) {
            self.more = more
            self.given = given
        }
    }

    /// The path the captures point into (shares the request's storage; no copy).
    @usableFromInline private(set) var path: String = ""
    /// The first capture, inline and trivially copied apart from its (short) name:
    /// `firstStart` -1 when there is none. An optional `Capture` here was copied through the
    /// runtime's generic witnesses on every lookup.
    @usableFromInline private(set) var firstName: String = ""
    @usableFromInline private(set) var firstStart: Int = -1
    @usableFromInline private(set) var firstEnd: Int = -1
    @usableFromInline private(set) var rest: Rest?

    public init() {}

    public init(_ values: [String: String]) {
        if !values.isEmpty { rest = Rest(more: [], given: values) }
    }

    /// Parameters to be captured from `path` by the router.
    init(capturingFrom path: String) { self.path = path }

    /// The one placeholder `name`'s value, `path`'s bytes `start..<end` (a route whose only
    /// placeholder ends it: made whole, with nothing to replace).
    init(path: String, name: String, start: Int, end: Int) {
        (self.path, firstName, firstStart, firstEnd) = (path, name, start, end)
    }

    /// Records a placeholder's value as `path`'s bytes `start..<end`. A name captured twice keeps
    /// the later value, as a dictionary would.
    mutating func capture(_ name: String, start: Int, end: Int) {
        guard firstStart >= 0 else {
            (firstName, firstStart, firstEnd) = (name, start, end)
            return
        }
        rest = Rest(more: (rest?.more ?? []) + [Capture(name: name, start: start, end: end)], given: rest?.given ?? [:])
    }

    /// Values given as text (`init(_:)`, for tests and handlers called directly).
    @usableFromInline
    var given: [String: String] { rest?.given ?? [:] }

    /// The value of placeholder `name`, percent-decoded, or nil when the route has no such placeholder.
    public subscript(name: String) -> String? {
        if let range = range(named: name) { return decoded(range) }
        return rest?.given[name]
    }

    /// Every value by name (a copy; for tests and diagnostics, not the hit path).
    public var values: [String: String] {
        var all = given
        if firstStart >= 0 { all[firstName] = decoded(firstStart..<firstEnd) }
        for capture in rest?.more ?? [] { all[capture.name] = decoded(capture.start..<capture.end) }
        return all
    }

    /// Calls `body` with the percent-decoded UTF-8 of placeholder `name` (exactly the bytes of
    /// `self[name]`), or returns nil when there is no such placeholder. A value without `%`
    /// is handed over in place, from the path's own storage: no copy, no `String`. Inlinable,
    /// so a handler's call is specialised for its closure (called generically from another
    /// module it cost ~1,700 more instructions per cached book hit).
    @inlinable
    public func withBytes<Answer>(_ name: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> Answer) rethrows -> Answer? {
        guard let range = range(named: name) else {
            guard let text = rest?.given[name] else { return nil }
            return try Array(text.utf8).withUnsafeBufferPointer(body)
        }
        let inPlace: Answer?? = try path.utf8.withContiguousStorageIfAvailable { pathBytes in
            let bytes = UnsafeBufferPointer(rebasing: pathBytes[range])
            guard !bytes.contains(UInt8(ascii: "%")) else { return nil }
            return try body(bytes)
        }
        if let inPlace, let result = inPlace { return result }
        return try Array(decoded(range).utf8).withUnsafeBufferPointer(body)
    }

    public static func == (lhs: RouteParameters, rhs: RouteParameters) -> Bool { lhs.values == rhs.values }

    /// Where the value captured for `name` lies in `path`, the latest capture when a name
    /// repeats. Names are compared as bytes.
    @usableFromInline
    func range(named name: String) -> Range<Int>? {
        if let rest {
            for capture in rest.more.reversed() where RouteParameters.sameBytes(capture.name, name) {
                return capture.start..<capture.end
            }
        }
        if firstStart >= 0, RouteParameters.sameBytes(firstName, name) { return firstStart..<firstEnd }
        return nil
    }

    /// Whether two names are the same bytes, compared in place (a short name lives inside its
    /// `String`; `withUTF8` lends it from the stack). A handler's `"isbn"` and the pattern's
    /// short `isbn` are usually identical values (`IdenticalStrings`), told equal at once.
    @usableFromInline
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        if IdenticalStrings.identical(a, b) { return true }
        guard a.utf8.count == b.utf8.count else { return false }
        var (a, b) = (a, b)
        return a.withUTF8 { aBytes in
            b.withUTF8 { bBytes in
                var index = 0
                while index < aBytes.count {
                    guard aBytes[index] == bBytes[index] else { return false }
                    index += 1
                }
                return true
            }
        }
    }

    @usableFromInline
    func decoded(_ range: Range<Int>) -> String {
        let utf8 = path.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        let end = utf8.index(utf8.startIndex, offsetBy: range.upperBound)
        return QueryString.percentDecode(utf8[start..<end], plusIsSpace: false)
    }
}
