import Testing
import Base

/// `ByteSearch` against the obvious byte-by-byte search, at every start and end of buffers that
/// put the needle at every offset within and across eight-byte words (the word trick's borrow
/// case included: a 0x0B just above a needle of 0x0A).
@Suite struct ByteSearchTests {
    private func naive(_ needle: UInt8, _ bytes: [UInt8], _ start: Int, _ end: Int) -> Int? {
        (start..<end).first { bytes[$0] == needle }
    }

    private func search(_ needle: UInt8, _ bytes: [UInt8], _ start: Int, _ end: Int) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            return ByteSearch.firstIndex(of: needle, in: base, from: start, to: end)
        }
    }

    @Test func findsTheFirstNeedleAtEveryOffset() {
        for length in 0...20 {
            for position in 0..<max(length, 1) {
                var bytes = [UInt8](repeating: 0x41, count: length)
                if position < length { bytes[position] = 0x0A }
                if position + 3 < length { bytes[position + 3] = 0x0A }
                for start in 0...length {
                    for end in start...length {
                        #expect(search(0x0A, bytes, start, end) == naive(0x0A, bytes, start, end),
                                "length \(length), needle at \(position), \(start)..<\(end)")
                    }
                }
            }
        }
    }

    @Test func aByteJustAboveTheNeedleIsNotAMatch() {
        // 0x0B ^ 0x0A = 0x01: the subtraction borrows into the next byte, which must not be read
        // as a match below the real one.
        let bytes: [UInt8] = [0x0B, 0x0B, 0x0A, 0x0B, 0x00, 0xFF, 0x80, 0x0A, 0x0B]
        #expect(search(0x0A, bytes, 0, bytes.count) == 2)
        #expect(search(0x0A, bytes, 3, bytes.count) == 7)
        #expect(search(0x0A, [0x0B, 0x0B, 0x0B, 0x0B, 0x0B, 0x0B, 0x0B, 0x0B, 0x0B], 0, 9) == nil)
    }

    @Test func everyByteValueIsFoundAmongAllTheOthers() {
        let bytes = (0...255).map { UInt8($0) }
        for needle in 0...255 {
            #expect(search(UInt8(needle), bytes, 0, bytes.count) == needle)
        }
    }
}
