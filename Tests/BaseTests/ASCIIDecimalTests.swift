import Base
import Testing

@Suite struct ASCIIDecimalTests {
    @Test func decimalFormatting() {
        for value in [0, 7, 10, 99, 700, 65536, 1_234_567_890, Int.max, -1, -42, Int.min] {
            var out: [UInt8] = []
            ASCIIDecimal.append(value, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(value))
        }
    }

    @Test func unsignedFormatting() {
        for value: UInt64 in [0, 9, 10, 4_228_023, UInt64(Int.max), UInt64(Int.max) + 1, .max] {
            var out: [UInt8] = []
            ASCIIDecimal.append(value, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(value))
        }
    }
}
