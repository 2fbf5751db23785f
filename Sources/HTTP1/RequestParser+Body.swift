/// The body: `Content-Length` content (RFC 9112 §6.2) or the chunked coding (§7.1).
extension RequestParser {
    /// Moves up to `remaining` buffered bytes into the body: how many, or nil when none has
    /// arrived yet. Content-Length bodies and chunk data both arrive this way.
    private mutating func takeBodyBytes(_ p: UnsafeBufferPointer<UInt8>, upTo remaining: Int) -> Int? {
        let available = p.count - readIndex
        guard available > 0 else { return nil }
        let n = Swift.min(available, remaining)
        parts.body.append(contentsOf: UnsafeBufferPointer(rebasing: p[readIndex..<readIndex + n]))
        consume(upTo: readIndex + n)
        return n
    }

    mutating func stepFixedBody(_ p: UnsafeBufferPointer<UInt8>, remaining: Int) -> StepOutcome {
        guard let n = takeBodyBytes(p, upTo: remaining) else { return .needMore }
        if n == remaining { return .complete }
        state = .fixedBody(remaining: remaining - n)
        return .needMore
    }

    /// More hex digits than this cannot be a size this server accepts (and overflow Int).
    static let maxChunkSizeDigits = 16

    /// `chunk-size [ chunk-ext ] CRLF` (RFC 9112 §7.1).
    mutating func stepChunkSize(_ p: UnsafeBufferPointer<UInt8>) -> StepOutcome {
        let extensionBudget = limits.maxChunkExtensionBytes - pending.chunkExtensionBytes
        let maxLine = Self.maxChunkSizeDigits + extensionBudget
        guard let lf = findLineFeed(p) else {
            if minimumContentOfUnfinishedLine(p) > maxLine { return .fail(chunkExtensionsTooLarge) }
            return .needMore
        }
        let hasCR = lf > readIndex && p[lf - 1] == ParseByte.cr
        let contentEnd = hasCR ? lf - 1 : lf
        if contentEnd - readIndex > maxLine { return .fail(chunkExtensionsTooLarge) }
        guard hasCR else { return .fail(bareLineFeed) }

        var i = readIndex
        var size = 0
        while i < contentEnd, let digit = ParseByte.hexValue(p[i]) {
            if i - readIndex == Self.maxChunkSizeDigits {
                return .fail(.badRequest("A chunk size has more than \(Self.maxChunkSizeDigits) hex digits"))
            }
            let (shifted, overflow) = size.multipliedReportingOverflow(by: 16)
            if overflow { return .fail(.badRequest("A chunk size is too large to be represented")) }
            size = shifted | digit
            i += 1
        }
        if i == readIndex {
            return .fail(.badRequest("A chunk must start with its size in hexadecimal (RFC 9112 §7.1)"))
        }
        let extensionBytes = contentEnd - i
        if extensionBytes > extensionBudget { return .fail(chunkExtensionsTooLarge) }
        if let error = Self.validateChunkExtensions(ParseBytes(p, i, contentEnd)) { return .fail(error) }
        pending.chunkExtensionBytes += extensionBytes
        consume(upTo: lf + 1)

        if size == 0 {
            state = .trailerLines
            return .continue
        }
        let (total, overflow) = pending.chunkedBodyBytes.addingReportingOverflow(size)
        if overflow || total > limits.maxBodyBytes { return .fail(contentTooLarge) }
        pending.chunkedBodyBytes = total
        state = .chunkData(remaining: size)
        return .continue
    }

    var chunkExtensionsTooLarge: ParseError {
        ParseError(status: .contentTooLarge,
                   detail: "Chunk extensions exceed \(limits.maxChunkExtensionBytes) bytes in one request")
    }

    /// `chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )`,
    /// `chunk-ext-val = token / quoted-string` (RFC 9112 §7.1.1). Extensions are ignored
    /// once validated: none has a meaning here.
    static func validateChunkExtensions(_ ext: ParseBytes) -> ParseError? {
        let invalid = ParseError.badRequest("Malformed chunk extension after a chunk size (RFC 9112 §7.1.1)")
        var i = ext.start
        func skipWhitespace(_ j: inout Int) {
            while j < ext.end && ParseByte.isWhitespace(ext[j]) { j += 1 }
        }
        func skipToken(_ j: inout Int) -> Bool {
            let start = j
            while j < ext.end && ParseByte.isTchar(ext[j]) { j += 1 }
            return j > start
        }
        while i < ext.end {
            skipWhitespace(&i)
            guard i < ext.end, ext[i] == ParseByte.semicolon else { return invalid }
            i += 1
            skipWhitespace(&i)
            guard skipToken(&i) else { return invalid }
            var j = i
            skipWhitespace(&j)
            guard j < ext.end, ext[j] == ParseByte.equals else { continue }
            i = j + 1
            skipWhitespace(&i)
            if i < ext.end && ext[i] == ParseByte.quote {
                guard skipQuotedString(ext, &i) else { return invalid }
            } else {
                guard skipToken(&i) else { return invalid }
            }
        }
        return nil
    }

    /// `quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE` (RFC 9110 §5.6.4).
    static func skipQuotedString(_ s: ParseBytes, _ i: inout Int) -> Bool {
        i += 1  // opening quote
        while i < s.end {
            let b = s[i]
            if b == ParseByte.quote {
                i += 1
                return true
            }
            if b == ParseByte.backslash {
                guard i + 1 < s.end, ParseByte.isFieldValueByte(s[i + 1]) else { return false }
                i += 2
                continue
            }
            guard ParseByte.isFieldValueByte(b) else { return false }
            i += 1
        }
        return false
    }

    mutating func stepChunkData(_ p: UnsafeBufferPointer<UInt8>, remaining: Int) -> StepOutcome {
        guard let n = takeBodyBytes(p, upTo: remaining) else { return .needMore }
        state = n == remaining ? .chunkDataEnd(sawCR: false) : .chunkData(remaining: remaining - n)
        return n == remaining ? .continue : .needMore
    }

    /// The CRLF after a chunk's data, checked byte by byte as it arrives.
    mutating func stepChunkDataEnd(_ p: UnsafeBufferPointer<UInt8>, sawCR: Bool) -> StepOutcome {
        guard readIndex < p.count else { return .needMore }
        let b = p[readIndex]
        if !sawCR {
            if b == ParseByte.lf { return .fail(bareLineFeed) }
            guard b == ParseByte.cr else {
                return .fail(.badRequest("Chunk data is longer than its declared size (no CRLF after it)"))
            }
            consume(upTo: readIndex + 1)
            state = .chunkDataEnd(sawCR: true)
            return .continue
        }
        guard b == ParseByte.lf else {
            return .fail(.badRequest("A bare CR follows chunk data; lines must end with CRLF"))
        }
        consume(upTo: readIndex + 1)
        state = .chunkSize
        return .continue
    }

    /// `trailer-section` (RFC 9112 §7.1.2): validated with the header rules and counted
    /// toward the header limits, then discarded, so a trailer can never smuggle in a field
    /// (Host, Content-Length…) that the head did not carry.
    mutating func stepTrailerLine(_ p: UnsafeBufferPointer<UInt8>) -> StepOutcome {
        switch takeFieldLine(p) {
        case .needMore: return .needMore
        case .failure(let error): return .fail(error)
        case .field: return .continue
        case .endOfSection: return .complete
        }
    }
}
