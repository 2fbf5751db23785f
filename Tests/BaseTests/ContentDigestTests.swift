import Base
import Testing

@Suite struct ContentDigestTests {
    /// FNV-1a 64 reference values (offset basis, "a", "foobar").
    @Test func referenceVectors() {
        #expect(ContentDigest().hex == "cbf29ce484222325")
        #expect(ContentDigest.hex(of: "a") == "af63dc4c8601ec8c")
        #expect(ContentDigest.hex(of: "foobar") == "85944171f73967e8")
    }

    /// Parts are separated (text by 0x1F, bytes by 0xFF), so moving a boundary changes the digest.
    @Test func partsAreSeparated() {
        var split1 = ContentDigest(), split2 = ContentDigest()
        split1.combine("ab"); split1.combine("c")
        split2.combine("a"); split2.combine("bc")
        #expect(split1.hex == "0ab11b2f87ef04a1")
        #expect(split2.hex == "cb31b5381b2a17ab")
        var bytes = ContentDigest()
        bytes.combine(bytes: Array("ab".utf8)); bytes.combine(bytes: Array("c".utf8))
        #expect(bytes.hex == "20ba9b3025a8b421")
    }

    /// The same 64 bits as 13 base-32 digits: short enough for a `String` to hold inline.
    @Test func compactTextIsTheDigestInBase32() {
        #expect(ContentDigest().compactText == "cnskssi2248p5")
        var a = ContentDigest()
        a.mix(UInt8(ascii: "a"))
        #expect(a.hex == "af63dc4c8601ec8c")
        #expect(a.compactText == "auous9i303r4c")
        #expect(a.compactText.utf8.count == 13)
    }
}
