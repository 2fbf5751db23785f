import Base
import Testing
import TestSupport

/// The one masking rule (`Redactor`): every secret becomes `***`, whatever carries it.
@Suite struct RedactorTests {
    @Test func secretQueryParametersAreMaskedAnywhere() {
        let r = Redactor()
        #expect(r.redact("GET /x?key=abc&b=2") == "GET /x?key=***&b=2")
        #expect(r.redact("u=https://h/p?a=1&TOKEN=zz#frag") == "u=https://h/p?a=1&TOKEN=***#frag")
        #expect(r.redact("\"https://h/p?apiKey=k1\"") == "\"https://h/p?apiKey=***\"")
        #expect(r.redact("monkey=banana?keyboard=1") == "monkey=banana?keyboard=1")
        #expect(r.redact("https://g.example/books/v1/volumes?q=isbn:9780131103627&key=AIzaSECRET#frag")
            == "https://g.example/books/v1/volumes?q=isbn:9780131103627&key=***#frag")
        // A percent-encoded name is the same name; an empty value still shows the mask.
        #expect(r.redact("/v?%6Bey=AIzaSECRET&x=1") == "/v?%6Bey=***&x=1")
        #expect(r.redact("/v?key=&x=1") == "/v?key=***&x=1")
    }

    @Test func callerNamedParametersJoinTheUsualOnes() {
        #expect(Redactor().redact("/v?sig=abc&key=k") == "/v?sig=abc&key=***")
        #expect(Redactor(parameters: ["Sig"]).redact("/v?sig=abc&key=k") == "/v?sig=***&key=***")
    }

    @Test func userinfoInURLsIsMasked() {
        let r = Redactor()
        #expect(r.redact("GET http://user:pa;ss,w&rd@10.0.0.7:8080/x failed") == "GET http://***@10.0.0.7:8080/x failed")
        #expect(r.redact("see https://a@b.example and http://c.example/@d") == "see https://***@b.example and http://c.example/@d")
        #expect(r.redact("mail ops@example.org") == "mail ops@example.org")
    }

    @Test func credentialsAfterAuthorizationOrBearerAreMasked() {
        let r = Redactor()
        #expect(r.redact("Authorization: Basic dXNlcjpwYXNz") == "Authorization: ***")
        #expect(r.redact("authorization: Bearer abc.def, next") == "authorization: Bearer ***, next")
        #expect(r.redact("AUTHORIZATION=xyz") == "AUTHORIZATION=***")
        #expect(r.redact("sent bearer tok123'") == "sent bearer ***'")
        #expect(r.redact("Authorization: ") == "Authorization: ")
    }

    @Test func configuredSecretsAreMaskedWhereverTheyAppear() {
        let r = Redactor(secrets: ["adm1n-t0ken", "abc"])
        #expect(r.redact("/admin/adm1n-t0ken/x adm1n-t0ken") == "/admin/***/x ***")
        // Shorter than four bytes: ignored as free text (it would shred every line).
        #expect(r.redact("abc abc") == "abc abc")
        #expect(r.secrets == ["adm1n-t0ken"])
        #expect(Redactor(secrets: ["pässwörd"]).redact("x pässwörd y") == "x *** y")
    }

    @Test func scrubMasksAURLsSecretValuesRawAndDecoded() {
        let url = "https://g.example/v?q=1&key=AIza%2FSECRET"
        #expect(Redactor.scrub("failed for AIza%2FSECRET and AIza/SECRET", url: url, parameters: ["key"])
            == "failed for *** and ***")
        #expect(Redactor.scrub("nothing here", url: url, parameters: []) == "nothing here")
    }

    @Test func replacingMasksEveryOccurrenceOfBytes() {
        #expect(Redactor.replacing(Array("pw".utf8), in: Array("AUTH u pw pwpw".utf8)) == Array("AUTH u *** ******".utf8))
        #expect(Redactor.replacing([], in: [1, 2]) == [1, 2])
        #expect(Redactor.replacing([1, 2, 3], in: [1, 2]) == [1, 2])
    }

    /// The one-scan fast path for plain fields gives exactly the bytes of redact-then-escape,
    /// for plain fields and for every kind that must take the slow path (escapes, non-ASCII,
    /// CR, `=`, markers, configured secrets).
    @Test(arguments: [[String](), ["adm1n-t0ken-very-secret"], ["requ"], ["127.0.0.1"]])
    func redactedJSONStringEqualsRedactThenEscape(secrets: [String]) {
        let redactor = Redactor(secrets: secrets)
        var texts = ["", "GET", "/v1/rates", "01HX-abc", "127.0.0.1", "::1", "a\"b", "a\\b", "line\nbreak", "\u{1}",
                     "tab\tx", "é", "\r", "/x?key=secret", "Bearer abc", "authorization: x", "AUTHORIZATION=y",
                     "/admin/adm1n-t0ken-very-secret", "request-id", "10.0.0.1:5000", "b: c", "a:b c"]
        var rng = SplitMix64(seed: 7)
        let alphabet = Array("ab:= \"\\\u{1}\récAB/?&-0123456789rEquBeArEr".unicodeScalars)
        for _ in 0..<3000 {
            var t = ""
            for _ in 0..<Int(rng.next() % 24) { t.unicodeScalars.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) }
            texts.append(t)
        }
        for text in texts {
            var fast: [UInt8] = []
            redactor.appendRedactedJSONString(text, to: &fast)
            var slow: [UInt8] = []
            JSONText.appendString(redactor.redact(text), to: &slow)
            #expect(fast == slow, "\(text.debugDescription)")
        }
    }
}

@Suite struct PercentDecodingTests {
    @Test func decodesStrictly() {
        #expect(PercentDecoding.decode(Array("a%40b%2f+".utf8)) == Array("a@b/+".utf8))
        #expect(PercentDecoding.decode(Array("%4".utf8)) == nil)
        #expect(PercentDecoding.decode(Array("%zz".utf8)) == nil)
        #expect(PercentDecoding.decode(Array("%".utf8)) == nil)
        #expect(PercentDecoding.decode([UInt8]()) == [])
    }
}
