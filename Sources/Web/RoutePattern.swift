import HTTP1

/// A route pattern compiled once, at registration, into byte segments, and matched against a
/// request path's bytes in place.
///
/// Matching used to split every path into `Substring`s and compare them per route, which on a
/// cached hit cost more than the rest of the routing (reference counting, UTF-8 checks, generic
/// `UTF8View` comparison). Here a path is walked once per candidate route with plain byte
/// comparisons, and a placeholder's value is recorded as a byte range (`RouteParameters`).
///
/// The path's segments are what `/`-splitting gives after dropping what precedes the first `/`
/// (empty segments kept), so a path has exactly as many segments as it has `/` bytes: the
/// router files patterns by that count and compares only patterns that can match.
struct RoutePattern: Sendable {
    /// One segment: a literal (`name` nil: the path segment must equal `prefix` byte for byte)
    /// or a placeholder (any non-empty value between the literal `prefix` and `suffix`, as in
    /// `{code}.json`). A struct rather than an enum with payloads: a multi-payload enum keeps its
    /// case in the spare bits of its arrays' pointers, which LeakSanitizer (the fuzz targets)
    /// cannot follow, so every compiled route read as a leak.
    struct Segment: Sendable {
        let name: String?
        let prefix: [UInt8]
        let suffix: [UInt8]

        static func literal(_ bytes: [UInt8]) -> Segment { Segment(name: nil, prefix: bytes, suffix: []) }
        var isLiteral: Bool { name == nil }
    }

    let segments: [Segment]
    /// How many segments are literals: the more, the more specific (it wins a tie).
    let literalCount: Int

    /// Compiles `pattern`: a segment with `{` before a `}` is a placeholder named by what lies
    /// between them (the first of each), with the bytes around them as its prefix and suffix;
    /// any other segment is a literal.
    init(_ pattern: String) {
        let bytes = Array(pattern.utf8)
        var segments: [Segment] = []
        for piece in RoutePattern.segmentRanges(bytes) {
            let segment = bytes[piece]
            if let open = segment.firstIndex(of: UInt8(ascii: "{")),
               let close = segment.firstIndex(of: UInt8(ascii: "}")), open < close {
                segments.append(Segment(name: String(decoding: segment[(open + 1)..<close], as: UTF8.self),
                                        prefix: Array(segment[..<open]), suffix: Array(segment[(close + 1)...])))
            } else {
                segments.append(.literal(Array(segment)))
            }
        }
        self.segments = segments
        literalCount = segments.reduce(0) { count, segment in segment.isLiteral ? count + 1 : count }
    }

    /// How many segments a path has: one per `/` byte.
    static func segmentCount(_ path: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in path where byte == UInt8(ascii: "/") { count += 1 }
        return count
    }

    /// Whether `path` (with `segments.count` segments, as `segmentCount` says) matches.
    func matches(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
        walk(path) { _, _, _ in }
    }

    /// The placeholders' values in `path`, which `matches`: byte ranges into `text`, whose
    /// UTF-8 `path` is. Run for the winning route only.
    func parameters(in path: UnsafeBufferPointer<UInt8>, of text: String) -> RouteParameters {
        var parameters = RouteParameters(capturingFrom: text)
        guard literalCount < segments.count else { return parameters }
        _ = walk(path) { name, start, end in parameters.capture(name, start: start, end: end) }
        return parameters
    }

    /// Matches segment by segment, telling `found` each placeholder's name and value range.
    @inline(__always)
    private func walk(_ path: UnsafeBufferPointer<UInt8>, _ found: (String, Int, Int) -> Void) -> Bool {
        guard var start = path.firstIndex(of: UInt8(ascii: "/")).map({ $0 + 1 }) else { return segments.isEmpty }
        for segment in segments {
            var end = start
            while end < path.count, path[end] != UInt8(ascii: "/") { end += 1 }
            guard let name = segment.name else {
                guard RoutePattern.equal(path, start, end, segment.prefix) else { return false }
                start = end + 1
                continue
            }
            let (prefix, suffix) = (segment.prefix, segment.suffix)
            guard end - start > prefix.count + suffix.count,
                  RoutePattern.equal(path, start, start + prefix.count, prefix),
                  RoutePattern.equal(path, end - suffix.count, end, suffix) else { return false }
            found(name, start + prefix.count, end - suffix.count)
            start = end + 1
        }
        // Only a path with as many segments as the pattern gets here (`segmentCount`): the last
        // segment ended at the path's end.
        return start == path.count + 1
    }

    /// The byte ranges of a path's (or pattern's) segments: what follows each `/`, up to the next.
    static func segmentRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        guard var start = bytes.firstIndex(of: UInt8(ascii: "/")).map({ $0 + 1 }) else { return ranges }
        while true {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.count
            ranges.append(start..<end)
            if end == bytes.count { return ranges }
            start = end + 1
        }
    }

    /// Whether `path[start..<end]` is exactly `expected`.
    static func equal(_ path: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ expected: [UInt8]) -> Bool {
        guard end - start == expected.count else { return false }
        var index = 0
        while index < expected.count {
            guard path[start + index] == expected[index] else { return false }
            index += 1
        }
        return true
    }
}
