import Base
import Testing

@Suite struct JSONTextTests {
    @Test func escapesQuotesBackslashesAndControls() {
        #expect(JSONText.quoted("") == "\"\"")
        #expect(JSONText.quoted("a\"b\\c") == "\"a\\\"b\\\\c\"")
        #expect(JSONText.quoted("\n\r\t") == "\"\\n\\r\\t\"")
        #expect(JSONText.quoted("\u{0}\u{1}\u{1F}") == "\"\\u0000\\u0001\\u001f\"")
        #expect(JSONText.quoted("é ✓ 🙂 /") == "\"é ✓ 🙂 /\"")
    }

    /// The byte form (log lines) writes exactly the bytes of the string form (bodies).
    @Test func bytesEqualText() {
        var texts = ["", "plain", "a\"b", "\\", "line\nbreak\r\t", "\u{7F}", "e\u{301}", "🙂\u{0}x"]
        for b in 0..<0x80 { texts.append("x" + String(UnicodeScalar(UInt8(b))) + "y") }
        for text in texts {
            var bytes: [UInt8] = []
            JSONText.appendString(text, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == JSONText.quoted(text), "\(text.debugDescription)")
        }
    }
}

@Suite struct JSONWriterTests {
    @Test func keysInTheOrderWritten() {
        var w = JSONWriter(capacity: 32)
        w.raw("{")
        w.key("b", first: true); w.string("x\"y")
        w.key("a"); w.optionalString(nil)
        w.key("n"); w.raw("1.50")
        w.raw("}")
        #expect(w.text == #"{"b":"x\"y","a":null,"n":1.50}"#)
        #expect(w.bytes == Array(w.text.utf8))
    }
}
