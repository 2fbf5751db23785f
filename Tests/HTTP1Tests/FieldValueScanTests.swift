import Testing
@testable import HTTP1

/// The parser checks field values eight bytes at a time (`ParseBytes.allFieldValueBytes`): its
/// verdict must be the byte-by-byte one (`ParseByte.isFieldValueByte`) for every length,
/// offset and position of a refused byte, obs-text and HTAB included.
@Suite struct FieldValueScanTests {
    static func verdicts(_ bytes: [UInt8], from start: Int, to end: Int) -> (word: Bool, byte: Bool) {
        bytes.withUnsafeBufferPointer { p in
            let range = ParseBytes(p, start, end)
            return (range.allFieldValueBytes(), range.allSatisfy(ParseByte.isFieldValueByte))
        }
    }

    @Test func everyBytePlacedEverywhere() {
        forEveryBytePlacedEverywhere { bytes, start, end, label in
            let (word, single) = Self.verdicts(bytes, from: start, to: end)
            #expect(word == single, Comment(rawValue: label))
            return word == single
        }
    }

    @Test func randomValues() {
        var rng = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x41, 0x7E, 0x7F, 0x80, 0xC3, 0xFF]
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...40, using: &rng)
            let bytes = (0..<count).map { _ in
                Bool.random(using: &rng) ? UInt8(ascii: "x") : alphabet.randomElement(using: &rng) ?? 0
            }
            let start = count == 0 ? 0 : Int.random(in: 0...count, using: &rng)
            let (word, single) = Self.verdicts(bytes, from: start, to: count)
            #expect(word == single, "\(bytes[start...])")
            if word != single { return }
        }
    }
}
