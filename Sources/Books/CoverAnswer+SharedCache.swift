import Base
import Cache

/// A cover travels between replicas as a `BinaryRecordWriter` record, tag `C`.
///
/// Layout, version 1: 1 for an image (its bytes are the body) or 0 for the missing-image 404,
/// the content type, then the body as a byte string (image bytes are carried as they are,
/// any byte value). The content type goes out as a response header, so reading refuses any
/// the service would not send: an image's must be the type its own bytes' signature names
/// (JPEG, PNG, GIF or WebP), a missing cover's is `application/problem+json`.
extension CoverAnswer: SharedCacheValue {
    static let sharedFormat = BinaryRecordFormat(tag: UInt8(ascii: "C"), version: 1)

    public var sharedCacheBytes: [UInt8] {
        var writer = BinaryRecordWriter(format: Self.sharedFormat, capacity: body.count + contentType.utf8.count + 16)
        writer.write(image != nil)
        writer.write(contentType)
        writer.write(bytes: body)
        return writer.bytes
    }

    public init?(sharedCacheBytes bytes: [UInt8]) {
        guard let cover = BinaryRecordReader.read(bytes, format: Self.sharedFormat, { reader throws(BinaryRecordError) in
            let isImage = try reader.readBool()
            let contentType = try reader.readString()
            let body = try reader.readBytes()
            // An image's bytes must be what its type says, as a fetched cover's are
            // (`CoverMediaType.sniffed`): a record cannot relabel an SVG or a page as a picture.
            guard isImage ? CoverMediaType.sniffed(body) == contentType : contentType == Self.missingContentType else {
                throw reader.invalid("content type")
            }
            return CoverAnswer(image: isImage ? body : nil, contentType: contentType, body: body)
        }) else { return nil }
        self = cover
    }
}
