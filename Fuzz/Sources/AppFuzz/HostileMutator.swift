// The `app` target's generator bias: besides libFuzzer's own mutations (with Fuzz/app.dict),
// one mutation in three splices a hostile Unicode sequence into the input, most often right
// after an ASCII digit or letter, where it turns "a digit" into a grapheme cluster that
// `Character` comparisons would still call a digit.

/// libFuzzer's default mutator (exported by its runtime).
@_silgen_name("LLVMFuzzerMutate")
func libFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int

enum HostileText {
    /// UTF-8 of what the `app` target is biased to: combining marks, joiners, emoji modifiers,
    /// fullwidth and non-ASCII digits, RTL marks, lookalikes (Kelvin sign, fullwidth comma),
    /// and bytes that are not UTF-8 (overlong, surrogate, past U+10FFFF, lone continuation).
    static let pieces: [[UInt8]] = [
        [0xCC, 0x81],             // U+0301 combining acute
        [0xCC, 0x88],             // U+0308 combining diaeresis
        [0xE2, 0x80, 0x8D],       // U+200D zero-width joiner
        [0xEF, 0xB8, 0x8F],       // U+FE0F variation selector 16
        [0xE2, 0x83, 0xA3],       // U+20E3 combining enclosing keycap
        [0xF0, 0x9F, 0x8F, 0xBB], // U+1F3FB emoji modifier
        [0xEF, 0xBC, 0x91],       // U+FF11 fullwidth 1
        [0xD9, 0xA1],             // U+0661 Arabic-Indic 1
        [0xE0, 0xA5, 0xA7],       // U+0967 Devanagari 1
        [0xE2, 0x80, 0x8F],       // U+200F right-to-left mark
        [0xE2, 0x80, 0xAE],       // U+202E right-to-left override
        [0xE2, 0x84, 0xAA],       // U+212A Kelvin sign (canonically "K")
        [0xEF, 0xBC, 0x8C],       // U+FF0C fullwidth comma
        [0xC2, 0xA0],             // U+00A0 no-break space
        [0xC0, 0xAF],             // overlong "/"
        [0xE0, 0x80, 0xAF],       // overlong "/", three bytes
        [0xED, 0xA0, 0x80],       // UTF-16 surrogate
        [0xF4, 0x90, 0x80, 0x80], // past U+10FFFF
        [0x80],                   // lone continuation byte
        [0xFF],                   // never UTF-8
        [0x25, 0x43, 0x43, 0x25, 0x38, 0x31], // "%CC%81" (decoded by a second layer, if any)
    ]
}

@_cdecl("LLVMFuzzerCustomMutator")
public func customMutator(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 | 1
    func next(_ bound: Int) -> Int {
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        return Int(state % UInt64(max(1, bound)))
    }
    guard next(3) == 0 else { return libFuzzerMutate(data, size, maxSize) }
    let piece = HostileText.pieces[next(HostileText.pieces.count)]
    guard size + piece.count <= maxSize else { return libFuzzerMutate(data, size, maxSize) }
    // After an ASCII alphanumeric past the three selector bytes when there is one.
    var candidates: [Int] = []
    if size > 3 {
        for i in 3..<size where (data[i] >= 0x30 && data[i] <= 0x39) || ((data[i] | 0x20) >= 0x61 && (data[i] | 0x20) <= 0x7A) {
            candidates.append(i + 1)
        }
    }
    let at = candidates.isEmpty || next(4) == 0 ? next(size + 1) : candidates[next(candidates.count)]
    // Shift the tail right and splice the piece in.
    var i = size - 1
    while i >= at { data[i + piece.count] = data[i]; i -= 1 }
    for (k, b) in piece.enumerated() { data[at + k] = b }
    return size + piece.count
}
