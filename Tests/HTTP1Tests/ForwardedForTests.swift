import HTTP1
import Testing

/// The access log's client address behind a trusted proxy: the last `X-Forwarded-For` entry,
/// numeric addresses only.
@Suite struct ForwardedForTests {
    private func address(_ values: String...) -> String? {
        var headers = HTTPHeaders()
        for value in values { headers.add("X-Forwarded-For", value) }
        return ForwardedFor.clientAddress(headers)
    }

    @Test func theLastEntryIsTheTrustedProxysOwn() {
        #expect(address("198.51.100.9, 203.0.113.7") == "203.0.113.7")
        #expect(address("198.51.100.9", "10.1.2.3,203.0.113.7 ") == "203.0.113.7")
        #expect(address("203.0.113.7:4711") == "203.0.113.7")
        #expect(address("2001:db8::1") == "2001:db8::1")
        #expect(address("[2001:db8::1]:4711") == "2001:db8::1")
    }

    @Test func anythingButANumericAddressIsIgnored() {
        for value in ["", "unknown", "203.0.113.7, ", "evil\",\"level\":\"error", "203.0.113.7 x", "1.2.3.4:port",
                      "[2001:db8::1", "２０３.0.113.7", "203.0.113.7\u{0301}", "999.1.1.1", "_hidden"] {
            #expect(address(value) == nil, "\(value)")
        }
        #expect(ForwardedFor.clientAddress(HTTPHeaders()) == nil)
    }
}
