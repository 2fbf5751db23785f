import Base

/// Renders volumes (`Volume`) in Google's shapes (`books#volume`, `books#volumes`) and the
/// native search answer. Like `BooksRenderer` (whose `Fact` writes each field) it is pure; the
/// absolute links (`selfLink`, `imageLinks`) are written as `BooksRenderer.linkBasePlaceholder`
/// followed by the path, and the HTTP layer fills the request's base in (`VolumesLinks`).
public enum VolumeRenderer {
    typealias Fact = BooksRenderer.Fact

    /// One `books#volume`: `kind`, `id`, `etag`, `selfLink`, then `volumeInfo` with only the
    /// facts the volume has (as Google omits absent ones), `infoLink` only when the upstream
    /// gave one, `imageLinks` through almanac's cover route.
    public static func volumeJSON(_ volume: Volume) -> String {
        let info = volumeInfoJSON(volume)
        var out = "{\"kind\":\"books#volume\",\"id\":"
        JSONText.appendString(volume.id, to: &out)
        out += ",\"etag\":\"" + etag(info) + "\",\"selfLink\":\"" + BooksRenderer.linkBasePlaceholder
            + "/books/v1/volumes/" + volume.id + "\",\"volumeInfo\":" + info + "}"
        return out
    }

    /// A `books#volumes` page; no `items` key when there are none, as Google answers.
    public static func volumesJSON(totalItems: Int, items: [Volume]) -> String {
        guard !items.isEmpty else { return "{\"kind\":\"books#volumes\",\"totalItems\":\(totalItems)}" }
        return "{\"kind\":\"books#volumes\",\"totalItems\":\(totalItems),\"items\":["
            + items.map(volumeJSON).joined(separator: ",") + "]}"
    }

    /// The native `/v1/books/search` answer: `query` (each parameter as given, or null), the
    /// paging, and items in `/v1/books/{isbn}`'s shape plus their volume `id`.
    public static func searchJSON(query: [(String, String?)], total: Int, page: Int, limit: Int,
                                  items: [Volume], source: String) -> String {
        var out = "{\"query\":{" + query.map { Fact.text($0.1).field($0.0) }.joined(separator: ",") + "}"
        out += ",\"total\":\(total),\"page\":\(page),\"limit\":\(limit),\"items\":["
        out += items.map(nativeItemJSON).joined(separator: ",")
        out += "],\"source\":"
        JSONText.appendString(source, to: &out)
        return out + "}"
    }

    /// `/v1/books/{isbn}`'s keys in its order (absent facts `null` or `[]`), then `id`.
    static func nativeItemJSON(_ volume: Volume) -> String {
        let facts: [(String, Fact)] = [
            ("isbn13", .text(volume.isbn?.isbn13)), ("isbn10", .text(volume.isbn?.isbn10)), ("title", .text(volume.title)),
            ("subtitle", .text(volume.subtitle)), ("authors", .list(volume.authors)), ("publisher", .text(volume.publisher)),
            ("publishedDate", .text(volume.publishedDate)), ("pageCount", .number(volume.pageCount)),
            ("language", .text(volume.language)), ("description", .text(volume.description)),
            ("categories", .list(volume.categories)), ("cover", .text(volume.coverPath)), ("source", .text(volume.source)),
            ("id", .text(volume.id)),
        ]
        return "{" + facts.map { $0.1.field($0.0) }.joined(separator: ",") + "}"
    }

    static func volumeInfoJSON(_ volume: Volume) -> String {
        func present(_ facts: [(String, Fact)]) -> [String] { facts.filter { !$0.1.isAbsent }.map { $0.1.field($0.0) } }
        var info = present([
            ("title", .text(volume.title)), ("subtitle", .text(volume.subtitle)), ("authors", .list(volume.authors)),
            ("publisher", .text(volume.publisher)), ("publishedDate", .text(volume.publishedDate)),
            ("description", .text(volume.description)),
        ])
        if let isbn = volume.isbn {
            var identifiers = "\"industryIdentifiers\":[{\"type\":\"ISBN_13\",\"identifier\":\"\(isbn.isbn13)\"}"
            if let isbn10 = isbn.isbn10 { identifiers += ",{\"type\":\"ISBN_10\",\"identifier\":\"\(isbn10)\"}" }
            info.append(identifiers + "]")
        }
        info += present([("pageCount", .number(volume.pageCount)), ("categories", .list(volume.categories)),
                         ("language", .text(volume.language))])
        if let path = volume.coverPath {
            let link = "\"" + BooksRenderer.linkBasePlaceholder + path + "\""
            info.append("\"imageLinks\":{\"smallThumbnail\":" + link + ",\"thumbnail\":" + link + "}")
        }
        info += present([("infoLink", .text(volume.infoLink))])
        return "{" + info.joined(separator: ",") + "}"
    }

    /// 11 characters of `[A-Za-z0-9_-]` (the 64 bits of a digest of what is rendered), in the
    /// style of Google's etags: changes whenever the volume's facts do.
    static func etag(_ info: String) -> String {
        var digest = ContentDigest()
        digest.combine(info)
        var bits = digest.state
        var out: [UInt8] = []
        for _ in 0..<11 {
            out.append(VolumeID.alphabet[Int(bits & 0x3F)])
            bits >>= 6
        }
        return String(decoding: out, as: UTF8.self)
    }
}
