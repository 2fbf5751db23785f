import Base

/// Renders the books representations (docs/books.md) from a `Book`: `/v1/books/{isbn}` once,
/// when an answer is cached (the one rendering an entry stores), and the Google-compatible
/// volumes shape when a route asks for it (from the book the entry derives). Like `RatesRenderer`,
/// the domain writes its own documented formats (pure, tested and fuzzed without HTTP); the
/// HTTP layer adds headers and encodes problems (see `BooksProblem`).
public enum BooksRenderer {
    /// Where the volumes answer's absolute link base goes: the bytes are rendered without the
    /// request (from a cached book or search page), the base depends on the request, so the HTTP layer fills it in per response. A NUL byte: a JSON
    /// encoder never writes one raw (it escapes every control byte as `\u0000`), so the marker
    /// cannot collide with any text a book holds.
    public static let linkBasePlaceholder = "\u{0}"

    /// docs/books.md: every key always present, absent facts `null` or `[]`, keys in a fixed order.
    public static func bookJSON(_ book: Book) -> String {
        let facts: [(String, Fact)] = [
            ("isbn13", .text(book.isbn13)), ("isbn10", .text(book.isbn10)), ("title", .text(book.title)),
            ("subtitle", .text(book.subtitle)), ("authors", .list(book.authors)), ("publisher", .text(book.publisher)),
            ("publishedDate", .text(book.publishedDate)), ("pageCount", .number(book.pageCount)),
            ("language", .text(book.language)), ("description", .text(book.description)),
            ("categories", .list(book.categories)), ("cover", .text(book.coverPath)), ("source", .text(book.source)),
        ]
        return "{" + facts.map { $0.1.field($0.0) }.joined(separator: ",") + "}"
    }

    /// Google Books' volumes list shape for clients written against Google (`VolumeRenderer`):
    /// the book as one `books#volume` whose id is Google's when Google contributed the book, else
    /// minted from its ISBN-13 (`Volume.init(book:)`); absent facts are
    /// omitted (as Google omits them), not null. Its links (`selfLink`, `imageLinks` pointing at
    /// almanac's own `/v1/books/{isbn13}/cover`) are absolute, as such clients expect; the base
    /// depends on the request, so the rendered bytes hold a placeholder that `VolumesLinks.fill`
    /// replaces per response. No book → `totalItems: 0` and no links.
    public static func volumesJSON(_ book: Book?) -> String {
        guard let book else { return VolumeRenderer.volumesJSON(totalItems: 0, items: []) }
        return VolumeRenderer.volumesJSON(totalItems: 1, items: [Volume(book: book)])
    }

    /// One fact of a book as both shapes write it: text, a list of texts, or a count.
    enum Fact {
        case text(String?)
        case list([String])
        case number(Int?)

        /// No value: `null` or `[]` in almanac's shape, left out of Google's.
        var isAbsent: Bool {
            switch self {
            case let .text(value): value == nil
            case let .list(values): values.isEmpty
            case let .number(value): value == nil
            }
        }

        /// `"key":value`.
        func field(_ key: String) -> String {
            var out = "\"\(key)\":"
            switch self {
            case let .text(value?): JSONText.appendString(value, to: &out)
            case let .number(value?): out += String(value)
            case .text(nil), .number(nil): out += "null"
            case let .list(values):
                out += "["
                for (i, value) in values.enumerated() {
                    if i > 0 { out += "," }
                    JSONText.appendString(value, to: &out)
                }
                out += "]"
            }
            return out
        }
    }
}
