/// Why a RESP stream was rejected. Terminal: the parser returns the same error from then on,
/// and the connection that fed it must be closed (nothing after a framing error can be trusted).
public struct RESPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The first byte of a value is no RESP2/RESP3 type marker.
        case unknownType(UInt8)
        /// A line holds a bare CR or LF, or a fixed-size payload is not followed by CRLF.
        case badLineEnding
        /// An integer, length or count is empty, not decimal, or out of range.
        case invalidNumber
        /// A RESP3 double is not `[+-]digits[.digits][e[+-]digits]`, `inf`, `-inf` or `nan`.
        case invalidDouble
        /// A RESP3 boolean is not `t` or `f`.
        case invalidBoolean
        /// A RESP3 big number is not `[-]digits`.
        case invalidBigNumber
        /// A RESP3 verbatim string is shorter than four bytes or lacks the `:` after its format.
        case invalidVerbatim
        /// A RESP3 null carries a payload.
        case invalidNull
        /// RESP3 streamed strings and aggregates (`$?`, `*?`, …): Redis never sends them.
        case streamedNotSupported
        /// A line is longer than `maxLineBytes`.
        case lineTooLong
        /// A payload is longer than `maxBulkBytes`.
        case bulkTooLong
        /// An aggregate announces more than `maxAggregateCount` elements.
        case aggregateTooLarge
        /// Aggregates nest deeper than `maxDepth`.
        case nestingTooDeep
    }

    public var kind: Kind
    /// Offset in the whole stream (bytes since the parser was created) where the bad value starts.
    public var offset: Int

    public init(_ kind: Kind, offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    public var description: String {
        let what: String
        switch kind {
        case .unknownType(let byte): what = "unknown type byte 0x\(String(byte, radix: 16))"
        case .badLineEnding: what = "malformed line ending"
        case .invalidNumber: what = "invalid integer, length or count"
        case .invalidDouble: what = "invalid double"
        case .invalidBoolean: what = "invalid boolean"
        case .invalidBigNumber: what = "invalid big number"
        case .invalidVerbatim: what = "invalid verbatim string"
        case .invalidNull: what = "null with a payload"
        case .streamedNotSupported: what = "streamed strings and aggregates are not supported"
        case .lineTooLong: what = "line too long"
        case .bulkTooLong: what = "bulk payload too long"
        case .aggregateTooLarge: what = "aggregate too large"
        case .nestingTooDeep: what = "nesting too deep"
        }
        return "RESP protocol error at byte \(offset): \(what)"
    }
}
