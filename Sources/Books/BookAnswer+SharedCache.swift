import Base
import Cache

/// A book answer travels between replicas as a `BinaryRecordWriter` record, tag `B`: the
/// rendered bodies exactly as this replica serves them (the validator is their digest, so the
/// reader recomputes the same one), plus the `Book` the cover route needs (its cover URL and
/// source).
///
/// Layout, version 1: ISBN-13, then 0 (not found) or 1 and the book (ISBN-13, optional title,
/// subtitle, authors, optional publisher, published date, page count, language, description,
/// categories, optional cover URL and cover source, sources), then the `/v1/books` body and
/// the volumes body as byte strings.
extension BookAnswer: SharedCacheValue {
    static let sharedFormat = BinaryRecordFormat(tag: UInt8(ascii: "B"), version: 1)

    public var sharedCacheBytes: [UInt8] {
        var writer = BinaryRecordWriter(format: Self.sharedFormat, capacity: cacheCost)
        writer.write(isbn.isbn13)
        writer.write(book != nil)
        if let book {
            writer.write(book.isbn.isbn13)
            writer.write(optional: book.title)
            writer.write(optional: book.subtitle)
            writer.write(book.authors)
            writer.write(optional: book.publisher)
            writer.write(optional: book.publishedDate)
            writer.write(optional: book.pageCount)
            writer.write(optional: book.language)
            writer.write(optional: book.description)
            writer.write(book.categories)
            writer.write(optional: book.coverURL)
            writer.write(optional: book.coverSource)
            writer.write(book.sources)
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
                var read = Book(isbn: try Self.readISBN(&reader))
                read.title = try reader.readOptionalString()
                read.subtitle = try reader.readOptionalString()
                read.authors = try reader.readStrings()
                read.publisher = try reader.readOptionalString()
                read.publishedDate = try reader.readOptionalString()
                read.pageCount = try reader.readOptionalInt()
                read.language = try reader.readOptionalString()
                read.description = try reader.readOptionalString()
                read.categories = try reader.readStrings()
                // Assigned, not passed to `Book.init`, which would fill a missing cover source in.
                read.coverURL = try reader.readOptionalString()
                read.coverSource = try reader.readOptionalString()
                read.sources = try reader.readStrings()
                book = read
            }
            return BookAnswer(isbn: isbn, book: book, body: try reader.readBytes(), volumesBody: try reader.readBytes())
        }) else { return nil }
        self = answer
    }

    private static func readISBN(_ reader: inout BinaryRecordReader) throws(BinaryRecordError) -> ISBN {
        guard let isbn = ISBN(isbn13: try reader.readString()) else { throw reader.invalid("ISBN") }
        return isbn
    }
}
