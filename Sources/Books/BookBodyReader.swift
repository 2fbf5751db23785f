import Base

/// Reads a `/v1/books/{isbn}` body (`BooksRenderer.bookJSON`) back into the facts it shows, so a
/// cached answer keeps one rendering and derives the `Book` from it (docs/cache.md "A book entry").
///
/// Only bodies this service rendered are read here, and `BookAnswer` checks at store time that
/// reading gives back exactly the book it rendered (anything else is kept in full instead), so
/// this reader is strict rather than forgiving: any key of the wrong kind makes it return nil.
enum BookBodyReader {
    /// The book shown by `body`, without what the body does not show (cover URL and source,
    /// Google's volume id: `BookExtras` adds them); nil when `body` is not a book rendering of `isbn`.
    static func book(isbn: ISBN, body: [UInt8]) -> Book? {
        guard case let .object(members)? = try? JSONParser.parse(body),
              case let .string(shown)? = members["isbn13"], shown.utf8.elementsEqual(isbn.isbn13.utf8) else { return nil }
        var book = Book(isbn: isbn)
        for (key, path) in textFields {
            guard let value = members[key], let text = optionalText(value) else { return nil }
            book[keyPath: path] = text
        }
        for (key, path) in listFields {
            guard let value = members[key], let texts = textList(value) else { return nil }
            book[keyPath: path] = texts
        }
        switch members["pageCount"] {
        case .null?: book.pageCount = nil
        case let .number(literal)?:
            guard let count = Int(literal) else { return nil }
            book.pageCount = count
        default: return nil
        }
        guard case let .string(source)? = members["source"] else { return nil }
        book.sources = source.utf8.split(separator: UInt8(ascii: "+")).map { String(decoding: $0, as: UTF8.self) }
        return book
    }

    /// The text facts the body shows as a string or `null`.
    private static let textFields: [(String, WritableKeyPath<Book, String?> & Sendable)] = [
        ("title", \.title), ("subtitle", \.subtitle), ("publisher", \.publisher), ("publishedDate", \.publishedDate),
        ("language", \.language), ("description", \.description),
    ]

    /// The list facts the body shows as an array of strings.
    private static let listFields: [(String, WritableKeyPath<Book, [String]> & Sendable)] = [
        ("authors", \.authors), ("categories", \.categories),
    ]

    /// `.some(nil)` for `null`, `.some(text)` for a string, nil for anything else.
    private static func optionalText(_ value: JSONValue) -> String?? {
        switch value {
        case .null: return .some(nil)
        case let .string(text): return .some(text)
        default: return nil
        }
    }

    private static func textList(_ value: JSONValue) -> [String]? {
        guard case let .array(items) = value else { return nil }
        var texts: [String] = []
        texts.reserveCapacity(items.count)
        for item in items {
            guard case let .string(text) = item else { return nil }
            texts.append(text)
        }
        return texts
    }
}
