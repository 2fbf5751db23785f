/// Writes RESP: commands as arrays of bulk strings (the only form a client sends), and any
/// `RESPValue` in RESP3 form (for tests and the fuzz target's round trip).
public enum RESPEncoder {
    /// Appends `*N\r\n` then `$len\r\narg\r\n` for each argument: binary-safe, no escaping.
    public static func appendCommand(_ arguments: [[UInt8]], to out: inout [UInt8]) {
        header(UInt8(ascii: "*"), arguments.count, to: &out)
        for argument in arguments {
            header(UInt8(ascii: "$"), argument.count, to: &out)
            out.append(contentsOf: argument)
            out.append(13)
            out.append(10)
        }
    }

    /// Appends `value` in RESP3 form. Simple strings and errors are written as given: one
    /// holding CR or LF (which the parser never produces) would not read back the same.
    public static func append(_ value: RESPValue, to out: inout [UInt8]) {
        switch value {
        case .simpleString(let bytes): line(UInt8(ascii: "+"), bytes, to: &out)
        case .error(let bytes): line(UInt8(ascii: "-"), bytes, to: &out)
        case .integer(let number): line(UInt8(ascii: ":"), Array(String(number).utf8), to: &out)
        case .null: line(UInt8(ascii: "_"), [], to: &out)
        case .boolean(let flag): line(UInt8(ascii: "#"), [flag ? UInt8(ascii: "t") : UInt8(ascii: "f")], to: &out)
        case .double(let number):
            // Swift spells a Double in its shortest round-trip form: `inf`, `-inf`, `nan`, `1e-05`.
            line(UInt8(ascii: ","), Array(String(number).utf8), to: &out)
        case .bigNumber(let digits): line(UInt8(ascii: "("), digits, to: &out)
        case .bulkString(let bytes): blob(UInt8(ascii: "$"), bytes, to: &out)
        case .blobError(let bytes): blob(UInt8(ascii: "!"), bytes, to: &out)
        case .verbatimString(let format, let text):
            blob(UInt8(ascii: "="), format + [UInt8(ascii: ":")] + text, to: &out)
        case .array(let items): aggregate(UInt8(ascii: "*"), items, to: &out)
        case .set(let items): aggregate(UInt8(ascii: "~"), items, to: &out)
        case .push(let items): aggregate(UInt8(ascii: ">"), items, to: &out)
        case .map(let pairs):
            header(UInt8(ascii: "%"), pairs.count, to: &out)
            for pair in pairs {
                append(pair.key, to: &out)
                append(pair.value, to: &out)
            }
        }
    }

    private static func header(_ marker: UInt8, _ count: Int, to out: inout [UInt8]) {
        line(marker, Array(String(count).utf8), to: &out)
    }

    private static func line(_ marker: UInt8, _ bytes: [UInt8], to out: inout [UInt8]) {
        out.append(marker)
        out.append(contentsOf: bytes)
        out.append(13)
        out.append(10)
    }

    private static func blob(_ marker: UInt8, _ bytes: [UInt8], to out: inout [UInt8]) {
        header(marker, bytes.count, to: &out)
        out.append(contentsOf: bytes)
        out.append(13)
        out.append(10)
    }

    private static func aggregate(_ marker: UInt8, _ items: [RESPValue], to out: inout [UInt8]) {
        header(marker, items.count, to: &out)
        for item in items { append(item, to: &out) }
    }
}
