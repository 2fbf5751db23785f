/// What the parser has learned about the request in progress, field by field, so that
/// nothing is rescanned when the head completes.
///
/// Plain values only (counts, flags): starting the next request overwrites them, with nothing
/// to release. The parts that become the request (method, target, fields, body) are the
/// parser's `RequestParts`, moved into the request when it completes.
struct PendingRequest {
    var version = HTTPVersion.http1_1
    /// Bytes of field lines so far (header section, then trailers), CRLFs included.
    var headerBytes = 0
    var fieldCount = 0

    var hostCount = 0
    var authorizationCount = 0
    var contentLength: Int?
    var sawTransferEncoding = false
    var transferCodingCount = 0
    var chunkedCount = 0
    var lastCodingIsChunked = false
    /// The first transfer coding that is not served, by kind (its detail is made on refusal).
    var unsupportedCoding = UnsupportedCoding.none
    var connectionClose = false
    var connectionKeepAlive = false
    var expectsContinue = false
    var unsupportedExpectation = false
    /// The fields the server reads for every request that were sent (`ServerReadFields`).
    var serverReadFields: ServerReadFields = []

    /// Sum of the chunk sizes announced so far.
    var chunkedBodyBytes = 0
    /// Chunk-extension bytes so far (limited by `maxChunkExtensionBytes`).
    var chunkExtensionBytes = 0

    /// keep-alive by default in HTTP/1.1, opt-in in HTTP/1.0 (RFC 9112 §9.3).
    var keepAlive: Bool {
        if connectionClose { return false }
        return version == .http1_1 || connectionKeepAlive
    }

    /// Records the meaning of the fields that govern framing and connection handling as
    /// each arrives; the checks that need the whole head run in `RequestParser.finishHead`.
    mutating func interpretField(name: ParseBytes, value: ParseBytes) -> ParseError? {
        switch name.count {
        case 4 where name.equalsLowercase("host"):
            hostCount += 1
            if hostCount > 1 {
                return .badRequest("More than one Host field (RFC 9112 §3.2)")
            }
            if !HostValidator.isValid(value) {
                return .badRequest("The Host field is not a valid host[:port] (RFC 9110 §7.2)")
            }
        case 13 where name.equalsLowercase("authorization"):
            // A singleton field (RFC 9110 §11.6.2): with two, which credentials count depends
            // on which one a component reads, so neither is guessed.
            authorizationCount += 1
            if authorizationCount > 1 {
                return .badRequest("More than one Authorization field; send the credentials once (RFC 9110 §11.6.2)")
            }
        case 14 where name.equalsLowercase("content-length"):
            return interpretContentLength(value)
        case 17 where name.equalsLowercase("transfer-encoding"):
            return interpretTransferEncoding(value)
        case 10 where name.equalsLowercase("connection"):
            value.forEachListElement { option in
                if option.equalsLowercase("close") { connectionClose = true }
                else if option.equalsLowercase("keep-alive") { connectionKeepAlive = true }
            }
        case 12 where name.equalsLowercase("x-request-id"):
            serverReadFields.insert(.requestID)
        case 11 where name.equalsLowercase("traceparent"):
            serverReadFields.insert(.traceparent)
        case 13 where name.equalsLowercase("if-none-match"):
            serverReadFields.insert(.ifNoneMatch)
        case 15 where name.equalsLowercase("accept-encoding"):
            serverReadFields.insert(.acceptEncoding)
        case 6 where name.equalsLowercase("origin"):
            serverReadFields.insert(.origin)
        case 6 where name.equalsLowercase("expect"):
            value.forEachListElement { expectation in
                if expectation.isEmpty { return }
                if expectation.equalsLowercase("100-continue") { expectsContinue = true }
                else { unsupportedExpectation = true }
            }
        default:
            break
        }
        return nil
    }

    /// `Content-Length = 1*DIGIT` (RFC 9112 §6.2). A comma list of identical values, in one
    /// field or several, is accepted as that value (RFC 9110 §8.6 allows it); differing
    /// values are a framing conflict.
    private mutating func interpretContentLength(_ value: ParseBytes) -> ParseError? {
        var failure: ParseError?
        value.forEachListElement { element in
            guard failure == nil else { return }
            guard !element.isEmpty, element.allSatisfy(ParseByte.isDigit) else {
                failure = .badRequest("Content-Length must be a non-negative decimal integer (RFC 9112 §6.2)")
                return
            }
            var n = 0
            var i = element.start
            while i < element.end {
                let (times10, o1) = n.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(Int(element[i] - 0x30))
                if o1 || o2 {
                    failure = .badRequest("Content-Length is too large to be represented")
                    return
                }
                n = sum
                i += 1
            }
            if let known = contentLength, known != n {
                failure = .badRequest("Content-Length values differ; the message framing is ambiguous (RFC 9112 §6.3)")
                return
            }
            contentLength = n
        }
        return failure
    }

    /// `Transfer-Encoding = #transfer-coding` (RFC 9112 §6.1). Fields combine in order; the
    /// decision (only `chunked`, exactly once, last) is taken when the head completes.
    private mutating func interpretTransferEncoding(_ value: ParseBytes) -> ParseError? {
        sawTransferEncoding = true
        var failure: ParseError?
        value.forEachListElement { coding in
            guard failure == nil, !coding.isEmpty else { return }
            var i = coding.start
            while i < coding.end && ParseByte.isTchar(coding[i]) { i += 1 }
            if i == coding.start {
                failure = .badRequest("Transfer-Encoding must be a list of transfer-coding tokens (RFC 9112 §6.1)")
                return
            }
            transferCodingCount += 1
            if i < coding.end {
                var j = i
                while j < coding.end && ParseByte.isWhitespace(coding[j]) { j += 1 }
                guard j < coding.end, coding[j] == ParseByte.semicolon else {
                    failure = .badRequest("Transfer-Encoding must be a list of transfer-coding tokens (RFC 9112 §6.1)")
                    return
                }
                lastCodingIsChunked = false
                if unsupportedCoding == .none { unsupportedCoding = .parameters }
                return
            }
            if ParseBytes(coding.base, coding.start, i).equalsLowercase("chunked") {
                chunkedCount += 1
                lastCodingIsChunked = true
            } else {
                lastCodingIsChunked = false
                if unsupportedCoding == .none { unsupportedCoding = .notChunked }
            }
        }
        return failure
    }

    /// After the whole head: only `Transfer-Encoding: chunked` is served (RFC 9112 §6.1, §7).
    func transferEncodingProblem() -> ParseError? {
        if transferCodingCount == 0 {
            return .badRequest("Transfer-Encoding is empty")
        }
        switch unsupportedCoding {
        case .none: break
        case .parameters:
            return ParseError(status: .notImplemented, detail: "Transfer-coding parameters are not supported; only 'chunked' is")
        case .notChunked:
            return ParseError(status: .notImplemented, detail: "Only the 'chunked' transfer coding is supported (RFC 9112 §6.1)")
        }
        if chunkedCount > 1 {
            return ParseError(status: .notImplemented, detail: "'chunked' must not be applied more than once (RFC 9112 §7)")
        }
        if !lastCodingIsChunked {
            return ParseError(status: .notImplemented, detail: "'chunked' must be the final transfer coding (RFC 9112 §6.3)")
        }
        return nil
    }
}

/// Why a transfer coding is not served (`PendingRequest.unsupportedCoding`).
enum UnsupportedCoding {
    case none
    /// A coding with parameters (`chunked;x=1`).
    case parameters
    /// A coding other than `chunked`.
    case notChunked
}

/// The parts of the request in progress that become the `HTTPRequest`: made while the head is
/// parsed, moved out (not copied) when the request completes.
///
/// Optionals rather than empty values: storing into a `nil` releases nothing, and taking one
/// out leaves `nil` behind.
struct RequestParts {
    var method: String?
    /// The target as sent.
    var rawTarget: String?
    /// `path[?query]`: what the request routes by (`RequestTargetParser`).
    var routedTarget: String?
    /// An absolute-form target's authority, which replaces `Host`.
    var authority: String?
    /// The first `?` in `routedTarget`, or -1.
    var queryMark = -1
    /// The header section's fields, once it is complete (none: nil).
    var received: ReceivedFields?
    var body: [UInt8] = []
}
