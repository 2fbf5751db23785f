/// Header fields serialized (`Name: value\r\n` each) and checked once, then written by every
/// response that carries them with one copy.
///
/// A cached representation answers thousands of requests a second with the same validator,
/// freshness and content type: its caching fields differ only from one second to the next.
/// Building them as strings and writing and checking them byte by byte on every hit was a
/// third of the response's cost; a prepared block is built once per entry and second by
/// whoever knows when the fields repeat (almanac's `CachingHeadersStep`), and the head writer
/// copies it.
///
/// The block passes the same checks as any handler field (`ResponseHeaderGuard`), and holds no
/// field the server writes itself (`ResponseHead.isServerOwned`): a field that would fail
/// either makes `init` return nil, and the caller sends plain fields, which the writer refuses
/// as it always does.
public final class PreparedHeaderLines: Sendable {
    /// The fields, in order (lookups and tests read them; the writer reads `bytes`).
    public let fields: [HTTPHeaders.Field]
    /// The serialized lines.
    let bytes: [UInt8]

    public init?(_ fields: [HTTPHeaders.Field]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 })
        for field in fields {
            guard !ResponseHead.isServerOwned(field.name), !ResponseHeaderGuard.isUnsafe(field) else { return nil }
            bytes.append(contentsOf: field.name.utf8)
            bytes.append(contentsOf: ": ".utf8)
            bytes.append(contentsOf: field.value.utf8)
            bytes.append(contentsOf: "\r\n".utf8)
        }
        self.fields = fields
        self.bytes = bytes
    }
}
