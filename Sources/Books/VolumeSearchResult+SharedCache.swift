import Base
import Cache

/// A search page (or a volume by id) travels between replicas as a `BinaryRecordWriter`
/// record, tag `S`, read back strictly: every ISBN must be a canonical ISBN-13, every count in
/// bounds, nothing left over.
///
/// Layout, version 1: source, total items, then the volumes, each: id, 0 or 1 and an ISBN-13,
/// optional title, subtitle, authors, optional publisher, published date, description, page
/// count, categories, optional language, info link, has-image flag, source.
extension VolumeSearchResult: SharedCacheValue {
    static let sharedFormat = BinaryRecordFormat(tag: UInt8(ascii: "S"), version: 1)

    public var sharedCacheBytes: [UInt8] { Self.recordBytes(totalItems: totalItems, items: items, source: source) }

    static func recordBytes(totalItems: Int, items: [Volume], source: String) -> [UInt8] {
        var writer = BinaryRecordWriter(format: sharedFormat, capacity: 256 + 256 * items.count)
        writer.write(source)
        writer.write(totalItems)
        writer.writeArray(items) { writer, volume in
            writer.write(volume.id)
            writer.write(volume.isbn != nil)
            if let isbn = volume.isbn { writer.write(isbn.isbn13) }
            writer.write(optional: volume.title)
            writer.write(optional: volume.subtitle)
            writer.write(volume.authors)
            writer.write(optional: volume.publisher)
            writer.write(optional: volume.publishedDate)
            writer.write(optional: volume.description)
            writer.write(optional: volume.pageCount)
            writer.write(volume.categories)
            writer.write(optional: volume.language)
            writer.write(optional: volume.infoLink)
            writer.write(volume.hasImage)
            writer.write(volume.source)
        }
        return writer.bytes
    }

    public init?(sharedCacheBytes bytes: [UInt8]) {
        guard let result = BinaryRecordReader.read(bytes, format: Self.sharedFormat, { reader throws(BinaryRecordError) in
            let source = try reader.readString()
            let total = try reader.readInt()
            guard total >= 0 else { throw reader.invalid("total items") }
            let items = try reader.readArray { reader throws(BinaryRecordError) -> Volume in
                let id = try reader.readString()
                var isbn: ISBN?
                if try reader.readBool() {
                    guard let read = ISBN(isbn13: try reader.readString()) else { throw reader.invalid("ISBN") }
                    isbn = read
                }
                return Volume(id: id, isbn: isbn, title: try reader.readOptionalString(),
                              subtitle: try reader.readOptionalString(), authors: try reader.readStrings(),
                              publisher: try reader.readOptionalString(), publishedDate: try reader.readOptionalString(),
                              description: try reader.readOptionalString(), pageCount: try reader.readOptionalInt(),
                              categories: try reader.readStrings(), language: try reader.readOptionalString(),
                              infoLink: try reader.readOptionalString(), hasImage: try reader.readBool(),
                              source: try reader.readString())
            }
            guard items.count <= VolumeSearchQuery.maxResultsLimit else { throw reader.invalid("item count") }
            return VolumeSearchResult(totalItems: total, items: items, source: source)
        }) else { return nil }
        self = result
    }
}
