import Base

/// An incremental, validating parser of RESP2 and RESP3 replies: bytes in, `RESPValue`s out.
///
/// Pure (no I/O, no clock) so that it is unit-tested at every split point and fuzzed. Bytes may
/// arrive in pieces of any size, split anywhere: `append` buffers them and `next()` returns each
/// complete top-level value in order, or nil when it needs more bytes. Work done is never redone:
/// a consumed line or payload is folded into an explicit stack of open aggregates (no recursion,
/// so nesting depth costs no stack), and the search for a line's CRLF resumes where it stopped.
///
/// Hostile input never traps: every number is range-checked with overflow detection, every line
/// end must be exactly CRLF, payload sizes, aggregate counts, nesting and line lengths are bounded
/// by `RESPParserLimits`, and an aggregate's announced count is never preallocated. The first
/// violation is returned as a `RESPParseError` and sticks: the stream cannot be resynchronized,
/// so the connection must be closed.
public struct RESPParser: Sendable {
    public let limits: RESPParserLimits

    private var buffer: [UInt8] = []
    /// First byte of `buffer` not consumed yet.
    private var start = 0
    /// Bytes dropped from the front of `buffer` so far (for error offsets).
    private var dropped = 0
    /// No CR or LF lies in `start + 1 ..< lineScan` (resumes the search for a pending line's end).
    private var lineScan = 0
    private var stack: [Frame] = []
    private var failure: RESPParseError?

    public init(limits: RESPParserLimits = RESPParserLimits()) {
        self.limits = limits
    }

    /// Bytes received and not yet consumed by a value (a partial value's consumed lines excluded).
    public var bufferedByteCount: Int { buffer.count - start }

    /// True while a top-level value is partly parsed (an aggregate is open or bytes wait).
    public var isMidValue: Bool { !stack.isEmpty || start < buffer.count }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
    }

    public mutating func append<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete top-level value, or nil when more bytes are needed.
    public mutating func next() throws(RESPParseError) -> RESPValue? {
        if let failure { throw failure }
        do throws(RESPParseError) {
            while true {
                let tokenStart = start
                guard let token = try readToken() else {
                    compact()
                    return nil
                }
                var completed: RESPValue?
                switch token {
                case .value(let value):
                    completed = value
                case .open(let kind, let count):
                    guard stack.count < limits.maxDepth else { throw fail(.nestingTooDeep, at: tokenStart) }
                    if count == 0 {
                        completed = Frame(kind: kind, remaining: 0).value
                    } else {
                        let slots = kind.holdsPairs ? count * 2 : count
                        stack.append(Frame(kind: kind, remaining: slots))
                    }
                }
                while let value = completed {
                    guard !stack.isEmpty else {
                        if start >= 1 << 16 && start * 2 >= buffer.count { compact() }
                        return value
                    }
                    let top = stack.count - 1
                    stack[top].items.append(value)
                    stack[top].remaining -= 1
                    guard stack[top].remaining == 0 else { break }
                    completed = stack.removeLast().value // nil for an attribute: it is dropped
                }
            }
        } catch {
            failure = error
            throw error
        }
    }

    // MARK: - Tokens

    private enum Token {
        case value(RESPValue)
        case open(AggregateKind, Int)
    }

    private enum AggregateKind {
        case array, map, set, push, attribute
        var holdsPairs: Bool { self == .map || self == .attribute }
    }

    private struct Frame {
        var kind: AggregateKind
        var remaining: Int
        var items: [RESPValue] = []

        /// The finished aggregate (nil for an attribute, which is not part of the reply).
        var value: RESPValue? {
            switch kind {
            case .array: return .array(items)
            case .set: return .set(items)
            case .push: return .push(items)
            case .attribute: return nil
            case .map:
                var pairs: [RESPPair] = []
                pairs.reserveCapacity(items.count / 2)
                var index = 0
                while index + 1 < items.count {
                    pairs.append(RESPPair(key: items[index], value: items[index + 1]))
                    index += 2
                }
                return .map(pairs)
            }
        }
    }

    private func fail(_ kind: RESPParseError.Kind, at index: Int) -> RESPParseError {
        RESPParseError(kind, offset: dropped + index)
    }

    /// One line or one length-prefixed payload, consumed only when complete.
    private mutating func readToken() throws(RESPParseError) -> Token? {
        let tokenStart = start
        guard tokenStart < buffer.count else { return nil }
        let marker = buffer[tokenStart]
        switch marker {
        case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "$"), UInt8(ascii: "*"),
             UInt8(ascii: "_"), UInt8(ascii: ","), UInt8(ascii: "#"), UInt8(ascii: "!"), UInt8(ascii: "="),
             UInt8(ascii: "("), UInt8(ascii: "%"), UInt8(ascii: "~"), UInt8(ascii: ">"), UInt8(ascii: "|"):
            break
        default:
            throw fail(.unknownType(marker), at: tokenStart)
        }
        guard let lineEnd = try findLineEnd(tokenStart: tokenStart) else { return nil }
        let line = (tokenStart + 1)..<lineEnd
        let afterLine = lineEnd + 2

        switch marker {
        case UInt8(ascii: "+"):
            consume(to: afterLine)
            return .value(.simpleString(Array(buffer[line])))
        case UInt8(ascii: "-"):
            consume(to: afterLine)
            return .value(.error(Array(buffer[line])))
        case UInt8(ascii: ":"):
            guard let number = Self.integer(buffer[line]) else { throw fail(.invalidNumber, at: tokenStart) }
            consume(to: afterLine)
            return .value(.integer(number))
        case UInt8(ascii: "_"):
            guard line.isEmpty else { throw fail(.invalidNull, at: tokenStart) }
            consume(to: afterLine)
            return .value(.null)
        case UInt8(ascii: "#"):
            guard line.count == 1 else { throw fail(.invalidBoolean, at: tokenStart) }
            let flag = buffer[line.lowerBound]
            guard flag == UInt8(ascii: "t") || flag == UInt8(ascii: "f") else { throw fail(.invalidBoolean, at: tokenStart) }
            consume(to: afterLine)
            return .value(.boolean(flag == UInt8(ascii: "t")))
        case UInt8(ascii: ","):
            guard let number = Self.double(buffer[line]) else { throw fail(.invalidDouble, at: tokenStart) }
            consume(to: afterLine)
            return .value(.double(number))
        case UInt8(ascii: "("):
            guard Self.isBigNumber(buffer[line]) else { throw fail(.invalidBigNumber, at: tokenStart) }
            consume(to: afterLine)
            return .value(.bigNumber(Array(buffer[line])))
        case UInt8(ascii: "$"), UInt8(ascii: "!"), UInt8(ascii: "="):
            let length: Int
            switch Self.length(buffer[line], cap: limits.maxBulkBytes) {
            case .streamed: throw fail(.streamedNotSupported, at: tokenStart)
            case .invalid: throw fail(.invalidNumber, at: tokenStart)
            case .tooLarge: throw fail(.bulkTooLong, at: tokenStart)
            case .null:
                guard marker == UInt8(ascii: "$") else { throw fail(.invalidNumber, at: tokenStart) }
                consume(to: afterLine)
                return .value(.null)
            case .count(let n):
                length = n
            }
            if marker == UInt8(ascii: "=") && length < 4 { throw fail(.invalidVerbatim, at: tokenStart) }
            // afterLine ≤ buffer.count: the left side cannot overflow, whatever the length.
            guard buffer.count - afterLine - 2 >= length else { return nil }
            let payloadEnd = afterLine + length
            guard buffer[payloadEnd] == 13, buffer[payloadEnd + 1] == 10 else {
                throw fail(.badLineEnding, at: tokenStart)
            }
            let payload = afterLine..<payloadEnd
            switch marker {
            case UInt8(ascii: "$"):
                consume(to: payloadEnd + 2)
                return .value(.bulkString(Array(buffer[payload])))
            case UInt8(ascii: "!"):
                consume(to: payloadEnd + 2)
                return .value(.blobError(Array(buffer[payload])))
            default:
                guard buffer[afterLine + 3] == UInt8(ascii: ":") else { throw fail(.invalidVerbatim, at: tokenStart) }
                consume(to: payloadEnd + 2)
                return .value(.verbatimString(format: Array(buffer[afterLine..<(afterLine + 3)]),
                                              text: Array(buffer[(afterLine + 4)..<payloadEnd])))
            }
        default: // aggregates: * % ~ > |
            let kind: AggregateKind
            switch marker {
            case UInt8(ascii: "*"): kind = .array
            case UInt8(ascii: "%"): kind = .map
            case UInt8(ascii: "~"): kind = .set
            case UInt8(ascii: ">"): kind = .push
            default: kind = .attribute
            }
            switch Self.length(buffer[line], cap: limits.maxAggregateCount) {
            case .streamed: throw fail(.streamedNotSupported, at: tokenStart)
            case .invalid: throw fail(.invalidNumber, at: tokenStart)
            case .tooLarge: throw fail(.aggregateTooLarge, at: tokenStart)
            case .null:
                guard kind == .array else { throw fail(.invalidNumber, at: tokenStart) }
                consume(to: afterLine)
                return .value(.null)
            case .count(let n):
                consume(to: afterLine)
                return .open(kind, n)
            }
        }
    }

    /// The index of the CR ending the line that starts after the marker at `tokenStart`, or nil
    /// when the line is not complete yet. A bare CR or LF inside a line is an error.
    private mutating func findLineEnd(tokenStart: Int) throws(RESPParseError) -> Int? {
        let lineStart = tokenStart + 1
        let maxEnd = lineStart + limits.maxLineBytes // the CR may sit at most here
        var index = max(lineScan, lineStart)
        let stop = min(buffer.count, maxEnd + 1)
        while index < stop {
            let byte = buffer[index]
            if byte == 13 {
                lineScan = index
                guard index + 1 < buffer.count else { return nil }
                guard buffer[index + 1] == 10 else { throw fail(.badLineEnding, at: tokenStart) }
                return index
            }
            if byte == 10 { throw fail(.badLineEnding, at: tokenStart) }
            index += 1
        }
        lineScan = index
        if buffer.count > maxEnd { throw fail(.lineTooLong, at: tokenStart) }
        return nil
    }

    private mutating func consume(to index: Int) {
        start = index
        lineScan = 0
    }

    /// Drops consumed bytes so the buffer holds only what is still to be parsed.
    private mutating func compact() {
        guard start > 0 else { return }
        if start >= buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 16)
        } else {
            buffer.removeSubrange(0..<start)
        }
        dropped += start
        lineScan = max(0, lineScan - start)
        start = 0
    }

    // MARK: - Numbers

    private enum Length {
        case null, count(Int), tooLarge, invalid, streamed
    }

    /// A length or count: `-1` (null), `?` (streamed), or decimal digits at most `cap`.
    private static func length(_ bytes: ArraySlice<UInt8>, cap: Int) -> Length {
        if bytes.elementsEqual([UInt8(ascii: "-"), UInt8(ascii: "1")]) { return .null }
        if bytes.elementsEqual([UInt8(ascii: "?")]) { return .streamed }
        guard !bytes.isEmpty else { return .invalid }
        var value = 0
        var tooLarge = false
        for byte in bytes {
            guard byte >= 48 && byte <= 57 else { return .invalid }
            if !tooLarge {
                let (times10, o1) = value.multipliedReportingOverflow(by: 10)
                let (next, o2) = times10.addingReportingOverflow(Int(byte - 48))
                value = next
                if o1 || o2 || value > cap { tooLarge = true }
            }
        }
        return tooLarge ? .tooLarge : .count(value)
    }

    /// A signed 64-bit decimal integer with an optional sign; nil when malformed or out of range.
    static func integer(_ bytes: ArraySlice<UInt8>) -> Int64? {
        var digits = bytes[...]
        var negative = false
        if let first = digits.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= 48 && byte <= 57 else { return nil }
            let digit = Int64(byte - 48)
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
            guard !o1, !o2 else { return nil }
            value = next
        }
        return value
    }

    /// `inf`, `-inf`, `nan`, or `[+-]digits[.digits][(e|E)[+-]digits]`.
    static func double(_ bytes: ArraySlice<UInt8>) -> Double? {
        switch Array(bytes) {
        case Array("inf".utf8), Array("+inf".utf8): return .infinity
        case Array("-inf".utf8): return -.infinity
        case Array("nan".utf8): return .nan
        default: break
        }
        guard DecimalLiteral.matches(bytes, sign: .plusOrMinus) else { return nil }
        return Double(String(decoding: bytes, as: UTF8.self))
    }

    /// `[-]digits`.
    static func isBigNumber(_ bytes: ArraySlice<UInt8>) -> Bool {
        let digits = bytes.first == UInt8(ascii: "-") ? bytes.dropFirst() : bytes
        return !digits.isEmpty && digits.allSatisfy { $0 >= 48 && $0 <= 57 }
    }
}
