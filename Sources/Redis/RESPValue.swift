/// One value of the Redis serialization protocol, RESP2 or RESP3, as the parser delivers it.
///
/// Byte payloads stay bytes (`[UInt8]`): Redis strings are binary-safe and nothing here
/// decodes them as text. RESP2's null bulk string and null array and RESP3's null all read
/// as `.null`. RESP3 attributes (`|`) are validated and dropped by the parser: this client
/// never asks for features that send them, and a reply must not change shape because one came.
public enum RESPValue: Sendable, Equatable {
    /// `+OK` (RESP2/3).
    case simpleString([UInt8])
    /// `-ERR message` (RESP2/3): the whole line after `-`, code first.
    case error([UInt8])
    /// `:42` (RESP2/3).
    case integer(Int64)
    /// `$3\r\nfoo` (RESP2/3), binary-safe.
    case bulkString([UInt8])
    /// `$-1`, `*-1` (RESP2) and `_` (RESP3).
    case null
    /// `*2 …` (RESP2/3).
    case array([RESPValue])
    /// `,3.14`, `,inf`, `,-inf`, `,nan` (RESP3).
    case double(Double)
    /// `#t`, `#f` (RESP3).
    case boolean(Bool)
    /// `!21\r\nSYNTAX invalid syntax` (RESP3): an error with a binary-safe message.
    case blobError([UInt8])
    /// `=15\r\ntxt:Some string` (RESP3): the three-byte format and the text after the colon.
    case verbatimString(format: [UInt8], text: [UInt8])
    /// `(3492890328409238509324850943850943825024385` (RESP3): the digits, with `-` when negative.
    case bigNumber([UInt8])
    /// `%2 …` (RESP3): key/value pairs in the order received (duplicates kept).
    case map([RESPPair])
    /// `~3 …` (RESP3): elements in the order received.
    case set([RESPValue])
    /// `>3 …` (RESP3): out-of-band data such as pub/sub messages.
    case push([RESPValue])
}

/// One entry of a RESP3 map.
public struct RESPPair: Sendable, Equatable {
    public var key: RESPValue
    public var value: RESPValue
}

extension RESPValue {
    /// The bytes of a simple, bulk or verbatim string; nil for any other kind.
    public var stringBytes: [UInt8]? {
        switch self {
        case .simpleString(let bytes), .bulkString(let bytes): return bytes
        case .verbatimString(_, let text): return text
        default: return nil
        }
    }

    /// The error text of `-…` or `!…` replies; nil for any other kind.
    public var errorBytes: [UInt8]? {
        switch self {
        case .error(let bytes), .blobError(let bytes): return bytes
        default: return nil
        }
    }

    /// The elements of an array, set or push; nil for any other kind.
    public var elements: [RESPValue]? {
        switch self {
        case .array(let items), .set(let items), .push(let items): return items
        default: return nil
        }
    }
}
