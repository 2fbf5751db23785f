import Base
/// Finds the known name a mistyped one was most likely meant to be, so a configuration error
/// can say "did you mean ALMANAC_SERVER_PORT?" instead of only "unknown".
///
/// Distance is Levenshtein over ASCII-case-folded bytes (config names are ASCII; anything else
/// simply costs one edit per byte). A suggestion is made only when it is close: at most a third
/// of the typed name's length (and at least 1, at most 4) edits away, so a stray name far from
/// every key gets no misleading hint. Ties go to the first name in `candidates`' order.
enum ClosestName {
    static func suggestion(for typed: String, among candidates: some Sequence<String>) -> String? {
        let typedBytes = typed.utf8.map(ASCIICase.lowercased)
        let limit = min(4, max(1, typedBytes.count / 3))
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(typedBytes, candidate.utf8.map(ASCIICase.lowercased), giveUpAbove: limit)
            guard distance <= limit, distance < (best?.distance ?? Int.max) else { continue }
            best = (candidate, distance)
        }
        return best?.name
    }

    /// Levenshtein distance with two rolling rows; returns `giveUpAbove + 1` as soon as every
    /// entry of a row exceeds the limit (no closer match is possible from there).
    static func editDistance(_ a: [UInt8], _ b: [UInt8], giveUpAbove limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return limit + 1 }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
