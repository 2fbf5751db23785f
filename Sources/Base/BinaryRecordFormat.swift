/// Names one kind of binary record and the version of its layout: the first two bytes of
/// every record `BinaryRecordWriter` writes.
///
/// A reader accepts only the exact pair it knows. A record of another kind (bytes stored
/// under the wrong name) or of another version (written by an older or newer replica during
/// a rolling upgrade) is refused whole, never half read: a layout change bumps `version`,
/// and the old and new code each see the other's records as absent.
public struct BinaryRecordFormat: Sendable, Equatable {
    /// What the record holds, e.g. `R` for a rate table; unique among the formats in use.
    public let tag: UInt8
    /// The layout's version; starts at 1.
    public let version: UInt8

    public init(tag: UInt8, version: UInt8) {
        self.tag = tag
        self.version = version
    }
}
