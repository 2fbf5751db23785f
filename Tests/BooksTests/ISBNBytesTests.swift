import TestSupport
import Testing
@testable import Books

/// `ISBN(parsing:)` on bytes (a path parameter as the router captured it) answers exactly as
/// the text parser does, valid or not, error for error.
@Suite struct ISBNBytesTests {
    static func parse(bytes: [UInt8]) -> Result<ISBN, ISBNError> {
        bytes.withUnsafeBufferPointer { buffer in Result(catching: { () throws(ISBNError) in try ISBN(parsing: buffer) }) }
    }

    static func parse(text: String) -> Result<ISBN, ISBNError> {
        Result(catching: { () throws(ISBNError) in try ISBN(parsing: text) })
    }

    @Test(arguments: [
        "0306406152", "978-0-306-40615-7", "0-306-40615-2", "978 0 306 40615 7", " 9780306406157 ",
        "020161622X", "020161622x", "0-201-61622-X", "020161622X-", "9780201616224", "080442957X",
        "979-10-0906360-8", "9798687249126", "9780767908177",
        // Not ISBNs: each error must be the text parser's own.
        "", "-", "9780306406158", "0306406153", "0201616220", "978030640615", "97803064061577",
        "97803064061570000", "9770306406157", "X306406152", "03064061X2", "978030640615X",
        "9780306406157X", "0306406152X", "978030640615\u{301}7", "97803064061\u{FF15}7",
        "978\u{A0}0306406157", "978/0306406157", "\u{E9}", "978%2D0306406157", "+9780306406157",
    ])
    func bytesAnswerAsText(input: String) {
        let fromBytes = Self.parse(bytes: Array(input.utf8))
        let fromText = Self.parse(text: input)
        switch (fromBytes, fromText) {
        case let (.success(a), .success(b)): #expect(a == b && a.isbn13 == b.isbn13, "\(input)")
        case let (.failure(a), .failure(b)): #expect(a == b, "\(input)")
        default: Issue.record("\(input): bytes \(fromBytes), text \(fromText)")
        }
    }

    /// Invalid UTF-8 is read as U+FFFD, as the text of those bytes would be.
    @Test func invalidUTF8IsReadAsReplacementCharacters() {
        let bytes: [UInt8] = [0x39, 0x37, 0x38, 0xFF, 0x30]
        guard case let .failure(error) = Self.parse(bytes: bytes) else {
            Issue.record("parsed")
            return
        }
        #expect(error == ISBNError(.unexpectedCharacter("\u{FFFD}", position: 4)))
    }

    /// The fast path's answer is the canonical thirteen digits, for ISBN-10 and -13 alike; it
    /// answers nil (leaving the reason to the full parser) for anything else.
    @Test func fastPathGivesCanonicalDigits() {
        let inputs = ["0-201-61622-X", "9780767908177", "979-10-0906360-8", "0 306 40615 2", "080442957X"]
        let expected: [String?] = ["9780201616224", "9780767908177", "9791009063608", "9780306406157", "9780804429573"]
        let answers = inputs.map { input in
            Array(input.utf8).withUnsafeBufferPointer { ISBN(wellFormed: $0)?.isbn13 }
        }
        #expect(answers == expected)
        for wrong in ["0201616220", "9770767908177", "9780767908178", "97807679081770", "X201616220", "020161622X0",
                      "97807679081X7", "978076790817", "", "-", "９780767908177"] {
            #expect(Array(wrong.utf8).withUnsafeBufferPointer { ISBN(wellFormed: $0) } == nil, "\(wrong)")
        }
    }

    /// Thirteen plain digits (how every cached book's URL spells it, read by a shortcut): for
    /// prefixes in and out of 978/979, every check digit, and one byte anywhere replaced by a
    /// near miss of a digit, the answer is the text parser's.
    @Test func plainThirteenDigitsAnswerAsText() {
        var rng = SplitMix64(seed: 13)
        for prefix in ["978", "979", "977", "000", "999"] {
            for _ in 0..<40 {
                let body = prefix + (0..<9).map { _ in String(Int.random(in: 0...9, using: &rng)) }.joined()
                for check in 0...9 {
                    let input = body + String(check)
                    let fast = Array(input.utf8).withUnsafeBufferPointer { ISBN(wellFormed: $0) }
                    #expect(fast == (try? ISBN(parsing: input)), "\(input)")
                }
                // One byte replaced, anywhere, by a near miss of a digit (or a separator, an X).
                var bytes = Array((body + "0").utf8)
                bytes[Int.random(in: 0..<13, using: &rng)] = [0x2F, 0x3A, 0xB0, 0x20, 0x2D, 0x58, 0x00, 0x39][Int.random(in: 0..<8, using: &rng)]
                let fast = bytes.withUnsafeBufferPointer { ISBN(wellFormed: $0) }
                #expect(fast == bytes.withUnsafeBufferPointer { try? ISBN(parsing: $0) }, "\(bytes)")
            }
        }
    }

    /// Thousands of seeded inputs of ISBN characters (digits, X, hyphen, space), about half of
    /// them with a correct check digit: bytes and text answer alike, every one.
    @Test func seededInputsAnswerAsText() {
        var rng = SplitMix64(seed: 2108)
        let alphabet = Array("0123456789Xx- ".utf8)
        for _ in 0..<5_000 {
            var digits = (0..<[9, 12, Int.random(in: 0...14, using: &rng)][Int.random(in: 0..<3, using: &rng)]).map { _ in
                alphabet[Int.random(in: 0..<(Int.random(in: 0..<8, using: &rng) == 0 ? alphabet.count : 10), using: &rng)]
            }
            if Bool.random(using: &rng), digits.count == 12 || digits.count == 9 {
                if digits.count == 12, Bool.random(using: &rng) { digits[0...2] = [0x39, 0x37, 0x38] }
                let values = digits.map { Int($0) - 0x30 }
                let check = digits.count == 12
                    ? Int(ISBN.checkDigit13(values.map { UInt8(truncatingIfNeeded: $0) }))
                    : Int(ISBN.checkDigit10(values.map { UInt8(truncatingIfNeeded: $0) }))
                digits.append(check == 10 ? UInt8(ascii: "X") : UInt8(0x30 + check))
            }
            let input = String(decoding: digits, as: UTF8.self)
            switch (Self.parse(bytes: digits), Self.parse(text: input)) {
            case let (.success(a), .success(b)): #expect(a == b && a.isbn13 == b.isbn13, "\(input)")
            case let (.failure(a), .failure(b)): #expect(a == b, "\(input)")
            case let (fromBytes, fromText): Issue.record("\(input): bytes \(fromBytes), text \(fromText)")
            }
        }
    }
}
