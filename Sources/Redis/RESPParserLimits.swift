/// Bounds on what one RESP stream may make the parser hold, so a hostile or broken server
/// cannot make the client allocate without limit or recurse without end.
///
/// Memory stays proportional to bytes actually received: an aggregate's announced count is
/// checked against `maxAggregateCount` but never preallocated, and a bulk payload is only
/// copied once complete.
public struct RESPParserLimits: Sendable, Equatable {
    /// Deepest nesting of aggregates (arrays, maps, sets, pushes, attributes) below the top.
    public var maxDepth: Int
    /// Largest bulk string, blob error or verbatim string payload, in bytes.
    public var maxBulkBytes: Int
    /// Most elements one aggregate may announce (a map counts its pairs).
    public var maxAggregateCount: Int
    /// Longest line (simple string, error, number, header), in bytes, CRLF excluded.
    public var maxLineBytes: Int

    /// Defaults: nesting 32, bulk 64 MiB, 1,048,576 elements per aggregate, lines of 64 KiB.
    public init(maxDepth: Int = 32, maxBulkBytes: Int = 64 << 20,
                maxAggregateCount: Int = 1 << 20, maxLineBytes: Int = 64 << 10) {
        self.maxDepth = max(0, maxDepth)
        self.maxBulkBytes = max(0, maxBulkBytes)
        self.maxAggregateCount = max(0, maxAggregateCount)
        self.maxLineBytes = max(1, maxLineBytes)
    }
}
