import Base
import Testing

@Suite struct UTF8OrderTests {
    /// Byte order is total, agrees with `<` on ASCII, and keeps canonically equivalent
    /// spellings apart, so sorting never depends on the order the keys came in.
    @Test func orderIsByBytes() {
        #expect("EUR".utf8Precedes("USD") && !"USD".utf8Precedes("EUR"))
        #expect("K".utf8Precedes("KBR") && "KBR".utf8Precedes("\u{212A}"))
        #expect("e\u{301}".utf8Precedes("é") && !"é".utf8Precedes("e\u{301}"))
        #expect(!"a".utf8Precedes("a"))
        let map = ["\u{212A}": 1, "KRW": 2, "KBR": 3, "KA": 4, "": 5]
        #expect(map.sortedByUTF8Key().map(\.value) == [5, 4, 3, 2, 1])
    }
}
