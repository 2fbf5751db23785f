import Base
import Cache

/// A book answer travels between replicas as a `BinaryRecordWriter` record, tag `B`: the
/// rendered bodies exactly as this replica serves them (the validator is their digest, so the
/// reader recomputes the same one), plus the `Book` the cover route needs (its cover URL and
/// source).
///
/// Layout, version 2: ISBN-13, then 0 (not found) or 1 and the book (ISBN-13, optional title,
/// subtitle, authors, optional publisher, published date, page count, language, description,
/// categories, optional cover URL and cover source, sources, optional Google volume id), then
/// the `/v1/books` body and the volumes body as byte strings. A Google volume id that is not
/// well-formed refuses the record. Version 1 (no volume id) records are refused as absent, and
/// refetched.
extension BookAnswer: SharedCacheValue {
    static let sharedFormat = BinaryRecordFormat(tag: UInt8(ascii: "B"), version: 2)

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
        var writer = BinaryRecordWriter(format: Self.sharedFormat, capacity: cacheCost)
        writer.write(isbn.isbn13)
        writer.write(book != nil)
        if let book {
            writer.write(book.isbn.isbn13)
            for field in Self.bookFields {
                switch field {
                case .text(let path): writer.write(optional: book[keyPath: path])
                case .texts(let path): writer.write(book[keyPath: path])
                case .number(let path): writer.write(optional: book[keyPath: path])
                }
            }
        }
        writer.write(bytes: body)
        writer.write(bytes: volumesBody)
        return writer.bytes
    }

    public init?(sharedCacheBytes bytes: [UInt8]) {
        guard let answer = BinaryRecordReader.read(bytes, format: Self.sharedFormat, { reader throws(BinaryRecordError) in
            let isbn = try Self.readISBN(&reader)
            var book: Book?
            if try reader.readBool() {
                // Assigned, not passed to `Book.init`, which would fill a missing cover source in.
                var read = Book(isbn: try Self.readISBN(&reader))
                for field in Self.bookFields {
                    switch field {
                    case .text(let path): read[keyPath: path] = try reader.readOptionalString()
                    case .texts(let path): read[keyPath: path] = try reader.readStrings()
                    case .number(let path): read[keyPath: path] = try reader.readOptionalInt()
                    }
                }
                if let id = read.googleVolumeID, !GoogleVolumeJSON.isVolumeID(id) { throw reader.invalid("Google volume id") }
                book = read
            }
            return BookAnswer(isbn: isbn, book: book, body: try reader.readBytes(), volumesBody: try reader.readBytes())
        }) else { return nil }
        self = answer
    }

    /// The answer of book `key` (its ISBN-13) only, and a found book only of that ISBN: book B's
    /// record copied under A's key is refused.
    public func belongs(toSharedCacheKey key: [UInt8]) -> Bool {
        isbn.sharedCacheKeyBytes == key && (book.map { $0.isbn == isbn } ?? true)
    }

    private static func readISBN(_ reader: inout BinaryRecordReader) throws(BinaryRecordError) -> ISBN {
        guard let isbn = ISBN(isbn13: try reader.readString()) else { throw reader.invalid("ISBN") }
        return isbn
    }
}
