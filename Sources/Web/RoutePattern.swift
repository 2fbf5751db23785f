import HTTP1

/// A route pattern compiled once, at registration, into byte segments, and matched against a
/// request path's bytes in place.
///
/// Matching used to split every path into `Substring`s and compare them per route, which on a
/// cached hit cost more than the rest of the routing (reference counting, UTF-8 checks, generic
/// `UTF8View` comparison). Here a candidate route's head (its bytes up to the first
/// placeholder's value) is compared with the path's first bytes, a word at a time; only a path
/// that starts with it is walked, from there, and a placeholder's value is recorded as a byte
/// range (`RouteParameters`). A pattern whose one placeholder ends it is not walked at all.
///
/// The compiled form is flat: every literal byte of the pattern lies in one array, and a
/// segment is only offsets into it (a trivial value). Walking the segments then copies no
/// array and retains nothing; with one array per segment, every segment visited on every
/// candidate route was retained and released, which cost more than the comparisons.
///
/// A class: the router reads a pattern through its route entry, and a reference is lent as it
/// is, where a struct of several arrays was copied (a retain and a release of each).
///
/// The path's segments are what `/`-splitting gives after dropping what precedes the first `/`
/// (empty segments kept), so a path has exactly as many segments as it has `/` bytes: the
/// router files patterns by that count and compares only patterns that can match.
final class RoutePattern: Sendable {
    /// One segment: a literal (`name` -1: the path segment must equal its prefix byte for byte)
    /// or a placeholder (`names[name]`: any non-empty value between the literal prefix and
    /// suffix, as in `{code}.json`). Prefix and suffix are ranges of `RoutePattern.bytes`.
    struct Segment: Sendable {
        let name: Int
        let prefixStart: Int
        let prefixEnd: Int
        let suffixStart: Int
        let suffixEnd: Int

        var isLiteral: Bool { name < 0 }
        var prefixCount: Int { prefixEnd - prefixStart }
        var suffixCount: Int { suffixEnd - suffixStart }
    }

    let segments: [Segment]
    /// Every segment's prefix and suffix bytes, back to back.
    let bytes: [UInt8]
    /// The placeholders' names, as `Segment.name` indexes them.
    let names: [String]
    /// How many segments are literals: the more, the more specific (it wins a tie).
    let literalCount: Int
    /// For a pattern without placeholders, the whole path it matches (`/` before each segment).
    let literalPath: [UInt8]?
    /// `literalPath` as text, for the router's comparison of a short path's bits
    /// (`IdenticalStrings`).
    let literalText: String?
    /// The first (up to) eight bytes of `head` as one integer, and the mask of those bytes
    /// (`key`): a path whose own key differs under the mask cannot match, which the router
    /// checks with one comparison before it touches the route.
    let headKey: UInt64
    let headMask: UInt64
    /// How many literal segments `head` covers, and where the next segment starts in a path
    /// that starts with `head` (after their bytes and a `/` each, and the leading `/`).
    let headSegments: Int
    let headSkip: Int
    /// Whether the pattern's one placeholder is its last segment (`matchLastSegment`).
    let endsWithItsOnlyPlaceholder: Bool
    /// What every matching path that starts with `/` starts with: `/` and each literal segment
    /// before the first placeholder, then `/` and that placeholder's prefix. Compared first,
    /// it turns most candidates away at their first differing byte, before any walk.
    let head: [UInt8]

    /// Compiles `pattern`: a segment with `{` before a `}` is a placeholder named by what lies
    /// between them (the first of each), with the bytes around them as its prefix and suffix;
    /// any other segment is a literal.
    init(_ pattern: String) {
        let text = Array(pattern.utf8)
        var segments: [Segment] = []
        var bytes: [UInt8] = []
        var names: [String] = []
        for piece in RoutePattern.segmentRanges(text) {
            let segment = text[piece]
            if let open = segment.firstIndex(of: UInt8(ascii: "{")),
               let close = segment.firstIndex(of: UInt8(ascii: "}")), open < close {
                let prefixStart = bytes.count
                bytes += segment[..<open]
                let suffixStart = bytes.count
                bytes += segment[(close + 1)...]
                segments.append(Segment(name: names.count, prefixStart: prefixStart, prefixEnd: suffixStart,
                                        suffixStart: suffixStart, suffixEnd: bytes.count))
                names.append(String(decoding: segment[(open + 1)..<close], as: UTF8.self))
            } else {
                let start = bytes.count
                bytes += segment
                segments.append(Segment(name: -1, prefixStart: start, prefixEnd: bytes.count,
                                        suffixStart: bytes.count, suffixEnd: bytes.count))
            }
        }
        self.segments = segments
        self.bytes = bytes
        self.names = names
        literalCount = names.isEmpty ? segments.count : segments.count - names.count
        var head: [UInt8] = []
        for segment in segments {
            head.append(UInt8(ascii: "/"))
            head += bytes[segment.prefixStart..<segment.prefixEnd]
            if !segment.isLiteral { break }
        }
        self.head = head
        headSegments = segments.firstIndex { !$0.isLiteral } ?? segments.count
        headSkip = segments[..<headSegments].reduce(1) { $0 + $1.prefixCount + 1 }
        endsWithItsOnlyPlaceholder = names.count == 1 && headSegments == segments.count - 1
        (headKey, headMask) = RoutePattern.key(head)
        literalPath = names.isEmpty ? segments.flatMap { [UInt8(ascii: "/")] + bytes[$0.prefixStart..<$0.prefixEnd] } : nil
        literalText = literalPath.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The first (up to) eight of `bytes`, first byte lowest, and a mask with all bits set
    /// under those bytes.
    static func key(_ bytes: [UInt8]) -> (key: UInt64, mask: UInt64) {
        var key: UInt64 = 0, mask: UInt64 = 0, shift: UInt64 = 0
        for byte in bytes.prefix(8) {
            key |= UInt64(byte) << shift
            mask |= 0xFF << shift
            shift += 8
        }
        return (key, mask)
    }

    /// A path's `key`: its first (up to) eight bytes, first byte lowest, read in one load when
    /// it has eight.
    static func key(_ path: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard let base = path.baseAddress else { return 0 }
        if path.count >= 8 { return UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(as: UInt64.self)) }
        var key: UInt64 = 0
        for index in 0..<path.count { key |= UInt64(path[index]) << UInt64(8 * index) }
        return key
    }

    /// How many segments a path has: one per `/` byte. Counted eight bytes at a time: in
    /// each word, the bytes equal to `/` become zero bytes, a zero byte (exactly) gets its high
    /// bit set (no carry crosses a byte), and one multiplication adds those bits up. A path's
    /// last partial word is read as the last eight bytes, minus those already counted.
    static func segmentCount(_ path: UnsafeBufferPointer<UInt8>) -> Int {
        let slash = UInt8(ascii: "/")
        guard path.count >= 8, let base = path.baseAddress else {
            var count = 0
            for byte in path where byte == slash { count += 1 }
            return count
        }
        let raw = UnsafeRawPointer(base)
        /// One bit (the high one) per byte of `word` that is `/`.
        func slashBits(_ word: UInt64) -> UInt64 {
            let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
            let zeroed = UInt64(littleEndian: word) ^ (0x0101_0101_0101_0101 &* UInt64(slash))
            return ~(((zeroed & low7) &+ low7) | zeroed | low7)
        }
        /// How many bytes have their high bit set in `bits` (each 0x80 or 0).
        func total(_ bits: UInt64) -> Int { Int(((bits >> 7) &* 0x0101_0101_0101_0101) >> 56) }
        var count = 0
        var index = 0
        while index + 8 <= path.count {
            count += total(slashBits(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
            index += 8
        }
        let rest = path.count - index
        if rest > 0 {
            // The first `8 - rest` bytes of the last eight were counted above: mask them out.
            let last = slashBits(raw.loadUnaligned(fromByteOffset: path.count - 8, as: UInt64.self))
            count += total(last & (UInt64.max << UInt64(8 * (8 - rest))))
        }
        return count
    }

    /// The placeholders' values when `path` (with `segments.count` segments) matches, as byte
    /// ranges into `text`, whose UTF-8 `path` is; nil when it does not match. One walk both
    /// decides and captures, so the winning route's path is not walked a second time.
    func match(_ path: UnsafeBufferPointer<UInt8>, of text: String) -> RouteParameters? {
        guard headMatches(path) else { return nil }
        if endsWithItsOnlyPlaceholder, path.first == UInt8(ascii: "/") { return matchLastSegment(path, of: text) }
        guard !names.isEmpty else { return walk(path) { _, _, _ in } ? RouteParameters() : nil }
        var parameters = RouteParameters(capturingFrom: text)
        guard walk(path, { name, start, end in parameters.capture(names[name], start: start, end: end) }) else { return nil }
        return parameters
    }

    /// `match` for a pattern whose one placeholder is its last segment (`/v1/books/{isbn}`,
    /// `/v1/bpi/currentprice/{code}.json`), on a path that starts with `head`: every `/` of the
    /// path lies in the head (it has as many as the pattern has segments, and so has the head),
    /// so the value is what lies between the head and the suffix, and nothing is walked.
    private func matchLastSegment(_ path: UnsafeBufferPointer<UInt8>, of text: String) -> RouteParameters? {
        guard let last = segments.last else { return nil }
        let start = headSkip + last.prefixCount, end = path.count - last.suffixCount
        guard end > start, bytes.withUnsafeBufferPointer({
            RoutePattern.same(path, end, $0, last.suffixStart, last.suffixCount)
        }) else { return nil }
        return RouteParameters(path: text, name: names[last.name], start: start, end: end)
    }

    /// False when `path` starts with `/` but not with `head`: then it cannot match.
    @inline(__always)
    private func headMatches(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
        path.first != UInt8(ascii: "/") || RoutePattern.equal(path, 0, min(path.count, head.count), head)
    }

    /// Matches segment by segment, telling `found` each placeholder's name (index into
    /// `names`) and value range. Only for a path with as many segments as the pattern, whose
    /// head has been checked (`headMatches`): a path starting with `/` is walked from the
    /// first segment `head` does not cover.
    @inline(__always)
    private func walk(_ path: UnsafeBufferPointer<UInt8>, _ found: (Int, Int, Int) -> Void) -> Bool {
        let slash = UInt8(ascii: "/")
        var start: Int
        var first = 0
        if path.first == slash {
            // `headMatches` has seen the literal segments before the first placeholder.
            (start, first) = (headSkip, headSegments)
        } else {
            guard let slashIndex = path.firstIndex(of: slash) else { return segments.isEmpty }
            start = slashIndex + 1
        }
        return bytes.withUnsafeBufferPointer { literals in
            for index in first..<segments.count {
                let segment = segments[index]
                var end = path.count
                // The path has as many `/` as the pattern has segments (`segmentCount`), so
                // the last segment runs to the path's end: only the others are scanned.
                if index < segments.count - 1 {
                    end = start
                    while end < path.count, path[end] != slash { end += 1 }
                }
                if segment.isLiteral {
                    guard end - start == segment.prefixCount,
                          RoutePattern.same(path, start, literals, segment.prefixStart, segment.prefixCount) else { return false }
                } else {
                    guard end - start > segment.prefixCount + segment.suffixCount,
                          RoutePattern.same(path, start, literals, segment.prefixStart, segment.prefixCount),
                          RoutePattern.same(path, end - segment.suffixCount, literals, segment.suffixStart, segment.suffixCount)
                    else { return false }
                    found(segment.name, start + segment.prefixCount, end - segment.suffixCount)
                }
                start = end + 1
            }
            return start == path.count + 1
        }
    }

    /// Whether `count` bytes of `path` from `start` are those of `literals` from `from` (both
    /// ranges lie inside their buffers: the walk checked the path's, compilation the pattern's).
    /// Eight bytes at a time, then byte by byte: a path's literal part is compared in a few
    /// loads rather than one compare-and-branch per byte.
    @inline(__always)
    static func same(_ path: UnsafeBufferPointer<UInt8>, _ start: Int, _ literals: UnsafeBufferPointer<UInt8>,
                     _ from: Int, _ count: Int) -> Bool {
        guard count > 0 else { return true }
        guard let pathBase = path.baseAddress, let literalBase = literals.baseAddress else { return false }
        let x = UnsafeRawPointer(pathBase + start), y = UnsafeRawPointer(literalBase + from)
        var index = 0
        while index + 8 <= count {
            guard x.loadUnaligned(fromByteOffset: index, as: UInt64.self) == y.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            else { return false }
            index += 8
        }
        while index < count {
            guard x.load(fromByteOffset: index, as: UInt8.self) == y.load(fromByteOffset: index, as: UInt8.self) else { return false }
            index += 1
        }
        return true
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

    /// Whether `path[start..<end]` (inside `path`) is exactly `expected`.
    @inline(__always)
    static func equal(_ path: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ expected: [UInt8]) -> Bool {
        guard end - start == expected.count else { return false }
        return expected.withUnsafeBufferPointer { same(path, start, $0, 0, end - start) }
    }
}
