/// The head: request line (RFC 9112 §3), header fields (§5) and the framing decision (§6).
extension RequestParser {
    mutating func stepRequestLine(_ p: UnsafeBufferPointer<UInt8>) -> StepOutcome {
        guard let lf = findLineFeed(p) else {
            if minimumContentOfUnfinishedLine(p) > limits.maxRequestLineBytes {
                return .fail(requestLineTooLong)
            }
            return .needMore
        }
        let hasCR = lf > readIndex && p[lf - 1] == ParseByte.cr
        let contentEnd = hasCR ? lf - 1 : lf
        if contentEnd - readIndex > limits.maxRequestLineBytes {
            return .fail(requestLineTooLong)
        }
        guard hasCR else { return .fail(bareLineFeed) }
        if contentEnd == readIndex {
            // RFC 9112 §2.2: ignore empty lines received before the request line.
            consume(upTo: lf + 1)
            return .continue
        }
        if let error = parseRequestLine(ParseBytes(p, readIndex, contentEnd)) {
            return .fail(error)
        }
        consume(upTo: lf + 1)
        headStart = readIndex
        fieldSpanCount = 0
        state = .headerLines
        return .continue
    }

    var requestLineTooLong: ParseError {
        ParseError(status: .uriTooLong,
                   detail: "The request line is longer than \(limits.maxRequestLineBytes) bytes; shorten the path or query")
    }

    var bareLineFeed: ParseError {
        .badRequest("Lines must end with CRLF; a bare LF is rejected (RFC 9112 §2.2)")
    }

    /// `request-line = method SP request-target SP HTTP-version` (RFC 9112 §3), single spaces.
    mutating func parseRequestLine(_ line: ParseBytes) -> ParseError? {
        let shape = "The request line must be 'METHOD SP request-target SP HTTP/1.1' (RFC 9112 §3)"
        guard let sp1 = line.firstIndex(of: ParseByte.sp),
              let sp2 = ParseBytes(line.base, sp1 + 1, line.end).firstIndex(of: ParseByte.sp) else {
            return .badRequest(shape)
        }
        let methodBytes = ParseBytes(line.base, line.start, sp1)
        let targetBytes = ParseBytes(line.base, sp1 + 1, sp2)
        let versionBytes = ParseBytes(line.base, sp2 + 1, line.end)

        switch parseVersion(versionBytes) {
        case .none:
            return .badRequest("Malformed HTTP-version; expected 'HTTP/1.1' (RFC 9112 §2.3)")
        case .some(let version) where version != .http1_1 && version != .http1_0:
            return ParseError(status: .httpVersionNotSupported,
                              detail: "\(version) is not supported; use HTTP/1.1 or HTTP/1.0")
        case .some(let version):
            pending.version = version
        }

        guard !methodBytes.isEmpty, methodBytes.allSatisfy(ParseByte.isTchar) else {
            return .badRequest("The method must be a token (RFC 9110 §9.1)")
        }
        if methodBytes.count == 7 && methodBytes.equalsExactly("CONNECT") {
            return ParseError(status: .notImplemented, detail: "CONNECT is not supported: this server is not a proxy")
        }
        let isOptions = methodBytes.count == 7 && methodBytes.equalsExactly("OPTIONS")
        if let error = RequestTargetParser.parse(targetBytes, isOptions: isOptions, into: &parts) {
            return error
        }
        parts.method = CommonTokens.method(methodBytes) ?? methodBytes.string
        return nil
    }

    /// `HTTP-version = "HTTP" "/" DIGIT "." DIGIT`, case-sensitive (RFC 9112 §2.3).
    func parseVersion(_ v: ParseBytes) -> HTTPVersion? {
        guard v.count == 8, ParseBytes(v.base, v.start, v.start + 5).equalsExactly("HTTP/"),
              ParseByte.isDigit(v[v.start + 5]), v[v.start + 6] == 0x2E, ParseByte.isDigit(v[v.start + 7]) else {
            return nil
        }
        return HTTPVersion(major: Int(v[v.start + 5] - 0x30), minor: Int(v[v.start + 7] - 0x30))
    }

    mutating func stepHeaderLine(_ p: UnsafeBufferPointer<UInt8>) -> StepOutcome {
        switch takeFieldLine(p) {
        case .needMore: return .needMore
        case .failure(let error): return .fail(error)
        case .field(let at):
            if let error = pending.interpretField(name: ParseBytes(p, at.nameStart, at.nameEnd),
                                                  value: ParseBytes(p, at.valueStart, at.valueEnd)) {
                return .fail(error)
            }
            let span = FieldSpan(nameStart: at.nameStart - headStart, nameEnd: at.nameEnd - headStart,
                                 valueStart: at.valueStart - headStart, valueEnd: at.valueEnd - headStart)
            if fieldSpanCount < fieldSpans.count { fieldSpans[fieldSpanCount] = span } else { fieldSpans.append(span) }
            fieldSpanCount += 1
            return .continue
        case .endOfSection:
            keepReceivedFields(p)
            return finishHead()
        }
    }

    enum FieldLine {
        case needMore
        case failure(ParseError)
        /// A valid field, where its name and value lie in `p`; its bytes are already consumed
        /// (they stay readable in `p`).
        case field(FieldSpan)
        /// The empty line; consumed.
        case endOfSection
    }

    /// One field line of the header section or the trailer section (same rules, same
    /// budget). Checks run in a fixed order, size first, so an input split anywhere yields
    /// the same verdict as the input whole.
    mutating func takeFieldLine(_ p: UnsafeBufferPointer<UInt8>) -> FieldLine {
        guard let lf = findLineFeed(p) else {
            // Content 0 may still be the empty line that ends the section, which is free.
            let content = minimumContentOfUnfinishedLine(p)
            if content > 0 && pending.headerBytes + content + 2 > limits.maxHeaderBytes {
                return .failure(headerSectionTooLarge)
            }
            return .needMore
        }
        let hasCR = lf > readIndex && p[lf - 1] == ParseByte.cr
        let contentEnd = hasCR ? lf - 1 : lf
        if contentEnd == readIndex {
            guard hasCR else { return .failure(bareLineFeed) }
            consume(upTo: lf + 1)
            return .endOfSection
        }
        // Counted as if CRLF-terminated even when the LF is bare, so that the verdict
        // matches the incremental check above (the bare LF is rejected just below).
        let lineBytes = contentEnd - readIndex + 2
        if pending.headerBytes + lineBytes > limits.maxHeaderBytes {
            return .failure(headerSectionTooLarge)
        }
        if pending.fieldCount + 1 > limits.maxHeaderFields {
            return .failure(ParseError(status: .requestHeaderFieldsTooLarge,
                                       detail: "More than \(limits.maxHeaderFields) header fields"))
        }
        guard hasCR else { return .failure(bareLineFeed) }
        switch Self.parseFieldLine(ParseBytes(p, readIndex, contentEnd)) {
        case .failure(let error):
            return .failure(error)
        case .success(let span):
            pending.headerBytes += lineBytes
            pending.fieldCount += 1
            consume(upTo: lf + 1)
            return .field(span)
        }
    }

    var headerSectionTooLarge: ParseError {
        ParseError(status: .requestHeaderFieldsTooLarge,
                   detail: "The header section is larger than \(limits.maxHeaderBytes) bytes")
    }

    /// `field-line = field-name ":" OWS field-value OWS` (RFC 9112 §5). Inlined into
    /// `takeFieldLine`, its one caller: no call and no `Result` in memory per field line.
    @inline(__always)
    static func parseFieldLine(_ line: ParseBytes) -> Result<FieldSpan, ParseError> {
        if ParseByte.isWhitespace(line[line.start]) {
            return .failure(.badRequest("A field line starts with whitespace: obs-fold is not accepted (RFC 9112 §5.2)"))
        }
        var i = line.start
        while i < line.end && ParseByte.isTchar(line.base[i]) { i &+= 1 }
        guard i < line.end else {
            return .failure(.badRequest("A header field has no colon (RFC 9112 §5)"))
        }
        let b = line[i]
        if b != ParseByte.colon {
            if ParseByte.isWhitespace(b) {
                return .failure(.badRequest("Whitespace between a field name and its colon is not allowed (RFC 9112 §5.1)"))
            }
            return .failure(.badRequest("A field name must be a token (RFC 9110 §5.1)"))
        }
        if i == line.start {
            return .failure(.badRequest("A field name must not be empty (RFC 9110 §5.1)"))
        }
        let value = ParseBytes(line.base, i + 1, line.end)
        guard value.allFieldValueBytes() else {
            return .failure(.badRequest("A field value contains a control character (RFC 9110 §5.5)"))
        }
        let trimmed = value.trimmingWhitespace()
        return .success(FieldSpan(nameStart: line.start, nameEnd: i, valueStart: trimmed.start, valueEnd: trimmed.end))
    }

    /// The header section is complete: its fields are copied out of the buffer into the
    /// request's own block (`ReceivedFields`), before body bytes or the next request reuse it.
    mutating func keepReceivedFields(_ p: UnsafeBufferPointer<UInt8>) {
        guard fieldSpanCount > 0 else { return }
        let count = fieldSpanCount
        let section = UnsafeBufferPointer(rebasing: p[headStart..<(headStart + fieldSpans[count - 1].valueEnd)])
        parts.received = fieldSpans.withUnsafeBufferPointer {
            ReceivedFields(section: section, spans: UnsafeBufferPointer(rebasing: $0[0..<count]))
        }
    }

    /// The empty line arrived: decide the framing (RFC 9112 §6.3) and the expectation.
    mutating func finishHead() -> StepOutcome {
        if pending.version == .http1_1 && pending.hostCount == 0 {
            return .fail(.badRequest("An HTTP/1.1 request must carry a Host field (RFC 9112 §3.2)"))
        }
        var chunked = false
        if pending.sawTransferEncoding {
            if pending.contentLength != nil {
                return .fail(.badRequest("Content-Length and Transfer-Encoding must not both be present (RFC 9112 §6.1)"))
            }
            if pending.version == .http1_0 {
                return .fail(.badRequest("Transfer-Encoding is not allowed in an HTTP/1.0 request (RFC 9112 §6.1)"))
            }
            if let error = pending.transferEncodingProblem() {
                return .fail(error)
            }
            chunked = true
        }
        if pending.unsupportedExpectation {
            return .fail(ParseError(status: .expectationFailed,
                                    detail: "The only supported expectation is '100-continue' (RFC 9110 §10.1.1)"))
        }
        let length = pending.contentLength ?? 0
        if length > limits.maxBodyBytes {
            return .fail(contentTooLarge)
        }
        // RFC 9110 §10.1.1: an HTTP/1.0 client cannot handle 100 Continue; ignore its expectation.
        let announcesContent = chunked || length > 0
        expectContinuePending = pending.expectsContinue && pending.version == .http1_1 && announcesContent
        if chunked {
            state = .chunkSize
            return .continue
        }
        if length > 0 {
            parts.body.reserveCapacity(length)
            state = .fixedBody(remaining: length)
            return .continue
        }
        return .complete
    }

    var contentTooLarge: ParseError {
        ParseError(status: .contentTooLarge, detail: "The request content is larger than \(limits.maxBodyBytes) bytes")
    }
}

extension ParseBytes {
    /// Case-sensitive comparison with a literal (methods and the version are case-sensitive),
    /// read in place: no closure.
    @inline(__always)
    func equalsExactly(_ literal: StaticString) -> Bool {
        guard literal.utf8CodeUnitCount == count else { return false }
        // A one-scalar literal may be stored as the scalar, without a pointer to read.
        guard literal.hasPointerRepresentation else {
            return literal.withUTF8Buffer { lit in
                for k in 0..<lit.count where base[start &+ k] != lit[k] { return false }
                return true
            }
        }
        let lit = literal.utf8Start
        var k = 0
        while k < count {
            if base[start &+ k] != lit[k] { return false }
            k &+= 1
        }
        return true
    }
}
