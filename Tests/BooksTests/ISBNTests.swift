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

    @Test func longInputIsCountedNotStored() {
        let long = String(repeating: "9", count: 10_000)
        #expect(throws: ISBNError(.wrongLength(digits: 10_000))) { try ISBN(parsing: long) }
    }
}
