import Base
import Cache

/// A book answer travels between replicas as a `BinaryRecordWriter` record, tag `B`: the
/// rendered bodies exactly as this replica serves them, plus the `Book` the cover route needs
/// (its cover URL and source). The reader renders the book again and refuses a record whose
/// bodies differ from what it renders, so a replica never serves bytes it would not write.
///
/// Layout, version 3 (version 2's layout; the validator became `BookAnswer`'s compact digest): ISBN-13, then 0 (not found) or 1 and the book (ISBN-13, optional title,
/// subtitle, authors, optional publisher, published date, page count, language, description,
/// categories, optional cover URL and cover source, sources, optional Google volume id), then
/// the `/v1/books` body and the volumes body as byte strings. A Google volume id that is not
/// well-formed refuses the record. Version 1 (no volume id) and 2 (the hex validator of both
/// bodies) records are refused as absent, and refetched.
extension BookAnswer: SharedCacheValue {
    static let sharedFormat = BinaryRecordFormat(tag: UInt8(ascii: "B"), version: 3)

    /// A book field of the record, by its kind of value.
    enum BookField: Sendable {
        case text(WritableKeyPath<Book, String?> & Sendable)
        case texts(WritableKeyPath<Book, [String]> & Sendable)
        case number(WritableKeyPath<Book, Int?> & Sendable)
    }

    /// The book's fields after its ISBN, in record order: the one list that writing and reading
    /// both walk, so the two cannot drift apart (a change of it is a new `sharedFormat` version).
    static let bookFields: [BookField] = [
        .text(\.title), .text(\.subtitle), .texts(\.authors), .text(\.publisher), .text(\.publishedDate),
        .number(\.pageCount), .text(\.language), .text(\.description), .texts(\.categories),
        .text(\.coverURL), .text(\.coverSource), .texts(\.sources), .text(\.googleVolumeID),
    ]

    public var sharedCacheBytes: [UInt8] {
        let book = book
        let volumesBody = Array(BooksRenderer.volumesJSON(book).utf8)
        var writer = BinaryRecordWriter(format: Self.sharedFormat, capacity: 2 * body.count + volumesBody.count + 64)
        writer.write(isbn.isbn13)
        writer.write(book != nil)
        if let book { Self.write(book, to: &writer) }
        writer.write(bytes: body)
        writer.write(bytes: volumesBody)
        return writer.bytes
    }

    public init?(sharedCacheBytes bytes: [UInt8]) {
        guard let answer = BinaryRecordReader.read(bytes, format: Self.sharedFormat, { reader throws(BinaryRecordError) in
            let isbn = try Self.readISBN(&reader)
            let book = try reader.readBool() ? try Self.readBook(&reader) : nil
            if let id = book?.googleVolumeID, !GoogleVolumeJSON.isVolumeID(id) { throw reader.invalid("Google volume id") }
            let body = try reader.readBytes()
            let volumesBody = try reader.readBytes()
            let answer = BookAnswer(isbn: isbn, book: book, notFoundBody: body)
            guard answer.body == body, Array(BooksRenderer.volumesJSON(book).utf8) == volumesBody else {
                throw reader.invalid("bodies that are not this book's renderings")
            }
            return answer
        }) else { return nil }
        self = answer
    }

    /// A book's fields as the record (and `BookExtras`, for a book kept whole) writes them.
    static func write(_ book: Book, to writer: inout BinaryRecordWriter) {
        writer.write(book.isbn.isbn13)
        for field in bookFields {
            switch field {
            case .text(let path): writer.write(optional: book[keyPath: path])
            case .texts(let path): writer.write(book[keyPath: path])
            case .number(let path): writer.write(optional: book[keyPath: path])
            }
        }
    }

    /// The book `write(_:to:)` wrote, as it was (the record's reader refuses a malformed Google
    /// volume id; a book kept whole in `BookExtras` is given back exactly).
    static func readBook(_ reader: inout BinaryRecordReader) throws(BinaryRecordError) -> Book {
        // Assigned, not passed to `Book.init`, which would fill a missing cover source in.
        var read = Book(isbn: try readISBN(&reader))
        for field in bookFields {
            switch field {
            case .text(let path): read[keyPath: path] = try reader.readOptionalString()
            case .texts(let path): read[keyPath: path] = try reader.readStrings()
            case .number(let path): read[keyPath: path] = try reader.readOptionalInt()
            }
        }
        return read
    }

    /// The answer of book `key` (its ISBN-13) only, and a found book only of that ISBN: book B's
    /// record copied under A's key is refused.
    public func belongs(toSharedCacheKey key: [UInt8]) -> Bool {
        isbn.sharedCacheKeyBytes == key && (!isFound || book?.isbn == isbn)
    }

    private static func readISBN(_ reader: inout BinaryRecordReader) throws(BinaryRecordError) -> ISBN {
        guard let isbn = ISBN(isbn13: try reader.readString()) else { throw reader.invalid("ISBN") }
        return isbn
    }
}
