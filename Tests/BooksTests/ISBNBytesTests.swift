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

    /// The fast path's answer is the canonical thirteen digits, for ISBN-10 and -13 alike.
    @Test func fastPathGivesCanonicalDigits() {
        let inputs = ["0-201-61622-X", "9780767908177", "979-10-0906360-8"]
        let expected: [String?] = ["9780201616224", "9780767908177", "9791009063608"]
        let answers = inputs.map { input in
            Array(input.utf8).withUnsafeBufferPointer { ISBN.canonicalISBN13(asciiBytes: $0) }
        }
        #expect(answers == expected)
        #expect(Array("0201616220".utf8).withUnsafeBufferPointer { ISBN.canonicalISBN13(asciiBytes: $0) } == nil)
    }
}
