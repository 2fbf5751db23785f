import Base

/// Renders the books representations (docs/books.md) from a `Book`, once, when an answer is
/// cached: `/v1/books/{isbn}` and the Google-compatible volumes shape. Like `RatesRenderer`,
/// the domain writes its own documented formats (pure, tested and fuzzed without HTTP); the
/// HTTP layer adds headers and encodes problems (see `BooksProblem`).
public enum BooksRenderer {
    /// Where the volumes answer's absolute link base goes: the bytes are stored once, the base
    /// depends on the request, so the HTTP layer fills it in per response. A NUL byte: a JSON
    /// encoder never writes one raw (it escapes every control byte as `\u0000`), so the marker
    /// cannot collide with any text a book holds.
    public static let linkBasePlaceholder = "\u{0}"

    /// docs/books.md: every key always present, absent facts `null` or `[]`, keys in a fixed order.
    public static func bookJSON(_ book: Book) -> String {
        var out = "{\"isbn13\":"
        JSONText.appendString(book.isbn13, to: &out)
        out += ",\"isbn10\":"
        appendOptional(book.isbn10, to: &out)
        out += ",\"title\":"
        appendOptional(book.title, to: &out)
        out += ",\"subtitle\":"
        appendOptional(book.subtitle, to: &out)
        out += ",\"authors\":"
        appendArray(book.authors, to: &out)
        out += ",\"publisher\":"
        appendOptional(book.publisher, to: &out)
        out += ",\"publishedDate\":"
        appendOptional(book.publishedDate, to: &out)
        out += ",\"pageCount\":" + (book.pageCount.map(String.init) ?? "null")
        out += ",\"language\":"
        appendOptional(book.language, to: &out)
        out += ",\"description\":"
        appendOptional(book.description, to: &out)
        out += ",\"categories\":"
        appendArray(book.categories, to: &out)
        out += ",\"cover\":"
        appendOptional(book.coverPath, to: &out)
        out += ",\"source\":"
        JSONText.appendString(book.source, to: &out)
        out += "}"
        return out
    }

    /// Google Books' volumes list shape for clients written against Google: absent facts are
    /// omitted (as Google omits them), not null. `imageLinks` never carry the upstream image
    /// URL: they point at almanac's own `/v1/books/{isbn13}/cover`, absolute as such clients
    /// expect. The base depends on the request, so the stored bytes hold a placeholder that
    /// `VolumesLinks.fill` replaces per response; no book, no cover → no `imageLinks`.
    public static func volumesJSON(_ book: Book?) -> String {
        guard let book else { return "{\"kind\":\"books#volumes\",\"totalItems\":0}" }
        var info: [String] = []
        func string(_ key: String, _ value: String?) {
            guard let value else { return }
            var field = "\"\(key)\":"
            JSONText.appendString(value, to: &field)
            info.append(field)
        }
        func array(_ key: String, _ values: [String]) {
            guard !values.isEmpty else { return }
            var field = "\"\(key)\":"
            appendArray(values, to: &field)
            info.append(field)
        }
        string("title", book.title)
        string("subtitle", book.subtitle)
        array("authors", book.authors)
        string("publisher", book.publisher)
        string("publishedDate", book.publishedDate)
        string("description", book.description)
        var identifiers = "\"industryIdentifiers\":[{\"type\":\"ISBN_13\",\"identifier\":\"\(book.isbn13)\"}"
        if let isbn10 = book.isbn10 { identifiers += ",{\"type\":\"ISBN_10\",\"identifier\":\"\(isbn10)\"}" }
        info.append(identifiers + "]")
        if let pageCount = book.pageCount { info.append("\"pageCount\":\(pageCount)") }
        array("categories", book.categories)
        string("language", book.language)
        if let path = book.coverPath {
            let link = "\"" + linkBasePlaceholder + path + "\""
            info.append("\"imageLinks\":{\"smallThumbnail\":" + link + ",\"thumbnail\":" + link + "}")
        }
        return "{\"kind\":\"books#volumes\",\"totalItems\":1,\"items\":[{\"kind\":\"books#volume\",\"volumeInfo\":{"
            + info.joined(separator: ",") + "}}]}"
    }

    private static func appendOptional(_ value: String?, to out: inout String) {
        if let value { JSONText.appendString(value, to: &out) } else { out += "null" }
    }

    private static func appendArray(_ values: [String], to out: inout String) {
        out += "["
        for (i, value) in values.enumerated() {
            if i > 0 { out += "," }
            JSONText.appendString(value, to: &out)
        }
        out += "]"
    }
}
