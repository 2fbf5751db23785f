import Testing
@testable import Books

@Suite struct ISBNTests {
    @Test(arguments: [
        ("0306406152", "9780306406157", "0306406152"),
        ("978-0-306-40615-7", "9780306406157", "0306406152"),
        ("0-306-40615-2", "9780306406157", "0306406152"),
        ("978 0 306 40615 7", "9780306406157", "0306406152"),
        (" 9780306406157 ", "9780306406157", "0306406152"),
        ("020161622X", "9780201616224", "020161622X"),
        ("020161622x", "9780201616224", "020161622X"),
        ("0-201-61622-X", "9780201616224", "020161622X"),
        ("9780201616224", "9780201616224", "020161622X"),
        ("080442957X", "9780804429573", "080442957X"),
    ])
    func valid(input: String, isbn13: String, isbn10: String) throws {
        let isbn = try ISBN(parsing: input)
        #expect(isbn.isbn13 == isbn13)
        #expect(isbn.isbn10 == isbn10)
        #expect(isbn.description == isbn13)
    }

    @Test func tenAndThirteenAreOneKey() throws {
        #expect(try ISBN(parsing: "0306406152") == ISBN(parsing: "978-0-306-40615-7"))
        #expect(try ISBN(parsing: "0306406152").hashValue == ISBN(parsing: "9780306406157").hashValue)
    }

    @Test func prefix979HasNoISBN10() throws {
        let isbn = try ISBN(parsing: "979-10-0906360-8")
        #expect(isbn.isbn13 == "9791009063608")
        #expect(isbn.isbn10 == nil)
        #expect(try ISBN(parsing: "9798687249126").isbn10 == nil)
    }

    @Test(arguments: [
        ("9780306406158", "check digit should be 7"),
        ("0306406153", "check digit should be 2"),
        ("0201616220", "check digit should be X"),
        ("978030640615", "ISBN must have 10 or 13 digits, got 12"),
        ("030640615", "ISBN must have 10 or 13 digits, got 9"),
        ("97803064061570", "ISBN must have 10 or 13 digits, got 14"),
        ("030Q406152", "unexpected character 'Q' at position 4"),
        ("9780306406157&key=x", "unexpected character '&' at position 14"),
        ("978-0306406157?", "unexpected character '?' at position 15"),
        ("0306406152\u{0}", "unexpected character U+0000 at position 11"),
        ("０306406152", "unexpected character U+FF10 at position 1"),
        ("", "ISBN is empty"),
        ("  - ", "ISBN is empty"),
        ("1234567890128", "ISBN-13 must start with 978 or 979, got 123"),
        ("03064X6152", "'X' at position 6 is only allowed as the check digit (last character) of an ISBN-10"),
        ("X306406152", "'X' at position 1 is only allowed as the check digit (last character) of an ISBN-10"),
        ("978030640615X", "'X' at position 13 is only allowed as the check digit (last character) of an ISBN-10"),
    ])
    func invalid(input: String, reason: String) {
        #expect {
            _ = try ISBN(parsing: input)
        } throws: { error in
            (error as? ISBNError)?.description == reason
        }
    }

    /// A digit followed by a combining mark, joiner or modifier is one `Character` that a
    /// `"0"..."9"` range accepts but that has no ASCII value: this trapped the process
    /// (`asciiValue!`). Parsed by Unicode scalar, the mark is an unexpected character at its
    /// own position; non-ASCII digits are never digits.
    @Test(arguments: [
        ("978076790817\u{301}", "unexpected character U+0301 at position 13"),
        ("030640615\u{308}2", "unexpected character U+0308 at position 10"),
        ("97803064061\u{200D}57", "unexpected character U+200D at position 12"),
        ("978030640615\u{FE0F}\u{20E3}7", "unexpected character U+FE0F at position 13"),
        ("978030640615\u{20E3}", "unexpected character U+20E3 at position 13"),
        ("9780306406157\u{1F3FB}", "unexpected character U+1F3FB at position 14"),
        ("\u{FF19}780306406157", "unexpected character U+FF19 at position 1"),
        ("978030640615\u{661}", "unexpected character U+0661 at position 13"),
        ("978030640615\u{967}", "unexpected character U+0967 at position 13"),
        ("\u{200F}9780306406157", "unexpected character U+200F at position 1"),
        ("9780306406157\u{202E}", "unexpected character U+202E at position 14"),
        ("020161622X\u{301}", "unexpected character U+0301 at position 11"),
        ("020161622\u{301}X", "unexpected character U+0301 at position 10"),
        ("-\u{301}0306406152", "unexpected character U+0301 at position 2"),
        (" \u{301}0306406152", "unexpected character U+0301 at position 2"),
        ("978030640615\u{FFFD}\u{FFFD}", "unexpected character U+FFFD at position 13"),
    ])
    func hostileScalarsAreUnexpectedCharacters(input: String, reason: String) {
        invalid(input: input, reason: reason)
    }

    @Test func longInputIsCountedNotStored() {
        let long = String(repeating: "9", count: 10_000)
        #expect(throws: ISBNError(.wrongLength(digits: 10_000))) { try ISBN(parsing: long) }
    }

    /// An ISBN is one 8-byte word (a cache key per cached book), and gives its digits back.
    @Test func anISBNIsOneWord() throws {
        #expect(MemoryLayout<ISBN>.size == 8)
        for text in ["9780306406157", "9791032305690", "9780000000002", "0-306-40615-2", "979-0-000000-00-1"] {
            let isbn = try ISBN(parsing: text)
            #expect(isbn.isbn13.utf8.count == 13)
            #expect(try ISBN(parsing: isbn.isbn13) == isbn)
            let digits: [UInt8] = text.utf8.filter { $0 != UInt8(ascii: "-") }
            if digits.count == 13 { #expect(Array(isbn.isbn13.utf8) == digits) }
        }
    }
}
