import Base

/// Serializes a response head (RFC 9112 §4, §6) into a caller-owned, reused buffer.
///
/// The server owns the framing fields: `Date`, `Server`, `Content-Length`, `Connection` and
/// `X-Request-ID` are written here and any handler-set copies of them (and of
/// `Transfer-Encoding`/`Keep-Alive`) are dropped, so a handler can never produce a response
/// whose framing disagrees with what is actually sent.
enum ResponseHead {
    /// How the body is framed and whether its bytes follow the head.
    struct Framing: Equatable {
        /// The `Content-Length` value to send, or nil for none.
        var contentLength: Int?
        /// Whether the body bytes are written after the head.
        var sendsBody: Bool
    }

    /// Content-Length on every response, except where RFC 9110 §8.6 forbids or distorts it:
    /// - 1xx and 204: MUST NOT carry Content-Length, and have no body;
    /// - 304: no body; a Content-Length is sent only when the handler set one (it must be
    ///   the selected representation's length, so inventing `0` would be wrong);
    /// - HEAD (RFC 9110 §9.3.2): the GET's Content-Length, no body.
    /// `handlerContentLength` is read only for the 304 and HEAD cases that use it (the caller
    /// need not look it up for others).
    static func framing(status: Int, isHead: Bool, bodyCount: Int, handlerContentLength: String?) -> Framing {
        if status < 200 || status == 204 {
            return Framing(contentLength: nil, sendsBody: false)
        }
        if status == 304 {
            return Framing(contentLength: handlerContentLength.flatMap { Int($0) }, sendsBody: false)
        }
        if isHead {
            if bodyCount == 0, let declared = handlerContentLength.flatMap({ Int($0) }) {
                return Framing(contentLength: declared, sendsBody: false)
            }
            return Framing(contentLength: bodyCount, sendsBody: false)
        }
        return Framing(contentLength: bodyCount, sendsBody: true)
    }

    /// An upper bound of the bytes `write` produces for these arguments (exact but for the
    /// digits of `Content-Length` and any handler fields the server drops).
    static func capacity(
        _ response: borrowing HTTPResponse, requestID: RequestID, date: [UInt8], serverName: String
    ) -> Int {
        var total = 9 + ASCIIDecimal.maxBytes + 1 + response.status.reasonPhrase.utf8.count + 2 // status line
        total += 6 + date.count + 10 + serverName.utf8.count // Date, Server
        total += 18 + ASCIIDecimal.maxBytes                  // Content-Length
        total += 24                                          // Connection
        total += 16 + requestID.byteCount + 2               // X-Request-ID
        total += (response.headers.prepared?.bytes.count ?? 0) + (response.headers.preparedTail?.bytes.count ?? 0)
        for field in response.headers.hasOwnFields ? response.headers.ownFields : [] {
            total += field.name.utf8.count + 2 + field.value.utf8.count + 2
        }
        return total + 2
    }

    /// Writes the whole head of `response` into `buffer`, which must hold at least
    /// `capacity(...)` bytes, and returns its framing, its length, and whether every handler
    /// field is safe to send (`ResponseHeaderGuard`, checked on the bytes just copied): when
    /// not, the caller must send something else.
    /// - Parameters:
    ///   - version: echoed from the request (`HTTP/1.0` or `HTTP/1.1`).
    ///   - close: `Connection: close` follows; otherwise a 1.0 keep-alive says `keep-alive`.
    static func write(
        _ response: borrowing HTTPResponse, version: HTTPVersion, isHead: Bool, close: Bool,
        requestID: RequestID, date: [UInt8], serverName: String, okPrefix: [UInt8] = [],
        into buffer: UnsafeMutableRawBufferPointer
    ) -> (framing: Framing, count: Int, safe: Bool) {
        let code = response.status.code
        // Looked up only where it is used, and not through a closure (which would copy the response).
        let declared = code == 304 || isHead ? response.headers["Content-Length"] : nil
        let framing = framing(status: code, isHead: isHead, bodyCount: response.body.count,
                              handlerContentLength: declared)
        var out = ByteWriter(buffer)
        if !okPrefix.isEmpty && code == 200 && version.minor == 1 && isOK(response.status.reasonPhrase) {
            okPrefix.withUnsafeBytes { out.write($0) } // made from `date` and `serverName` (`okPrefix`)
        } else {
            writeStatusDateServer(code: code, reason: response.status.reasonPhrase, version: version,
                                  date: date, serverName: serverName, into: &out)
        }
        if let length = framing.contentLength {
            out.write("\r\nContent-Length: ")
            out.writeDecimal(length)
        }
        if close {
            out.write("\r\nConnection: close")
        } else if version == .http1_0 {
            out.write("\r\nConnection: keep-alive")
        }
        out.write("\r\nX-Request-ID: ")
        requestID.write(into: &out)
        out.write("\r\n")
        // Prepared lines were checked when they were made (`PreparedHeaderLines`).
        if let prepared = response.headers.prepared {
            prepared.bytes.withUnsafeBytes { out.write($0) }
        }
        var unsafe = false
        // Fields written one by one and checked on their bytes (none on a hit: its fields are
        // all in prepared blocks).
        if response.headers.hasOwnFields {
            response.headers.ownFields.withUnsafeBufferPointer { fields in
                for i in fields.indices where !isServerOwned(fields[i].name) {
                    let nameStart = out.count
                    out.write(fields[i].name)
                    unsafe = ResponseHeaderGuard.unsafeNameBytes(out.written(from: nameStart)) || unsafe
                    out.write(": ")
                    let valueStart = out.count
                    out.write(fields[i].value)
                    unsafe = ResponseHeaderGuard.unsafeValueBytes(out.written(from: valueStart)) || unsafe
                    out.write("\r\n")
                }
            }
        }
        if let tail = response.headers.preparedTail {
            tail.bytes.withUnsafeBytes { out.write($0) }
        }
        out.write("\r\n")
        return (framing, out.count, !unsafe)
    }

    /// The status line, `Date` and `Server`, up to the `\r\n` that ends `Server`'s value.
    @inline(__always)
    private static func writeStatusDateServer(code: Int, reason: String, version: HTTPVersion, date: [UInt8],
                                              serverName: String, into out: inout ByteWriter) {
        out.write(version == .http1_0 ? "HTTP/1.0 " : "HTTP/1.1 ")
        out.writeDecimal(code)
        out.write(byte: 32)
        out.write(reason)
        out.write("\r\nDate: ")
        out.write(date)
        out.write("\r\nServer: ")
        out.write(serverName)
    }

    /// What `write` starts an HTTP/1.1 `200 OK` head with, for one `Date` and `Server`: made
    /// once a second per event loop (`HTTPDateCache`) and copied as one block.
    static func okPrefix(date: [UInt8], serverName: String) -> [UInt8] {
        let bound = 30 + date.count + serverName.utf8.count + ASCIIDecimal.maxBytes
        return [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            var out = ByteWriter(UnsafeMutableRawBufferPointer(buffer))
            writeStatusDateServer(code: 200, reason: HTTPStatus.ok.reasonPhrase, version: .http1_1, date: date,
                                  serverName: serverName, into: &out)
            count = out.count
        }
    }

    /// Whether a 200's reason phrase is the standard `OK` (a handler may set its own).
    @inline(__always)
    private static func isOK(_ reason: String) -> Bool {
        return reason == "OK" // two ASCII bytes: a small string, compared by its raw bits
    }

    /// Appends the whole head of `response` to `out` and returns its framing (tests, and
    /// callers without a scratch buffer).
    @discardableResult
    static func write(
        _ response: HTTPResponse, version: HTTPVersion, isHead: Bool, close: Bool,
        requestID: RequestID, date: [UInt8], serverName: String, into out: inout [UInt8]
    ) -> Framing {
        let bound = capacity(response, requestID: requestID, date: date, serverName: serverName)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bound, alignment: 1)
        defer { buffer.deallocate() }
        let (framing, count, _) = write(response, version: version, isHead: isHead, close: close,
                                        requestID: requestID, date: date, serverName: serverName, into: buffer)
        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        return framing
    }

    /// The interim response sent on `Expect: 100-continue` (RFC 9110 §10.1.1).
    static let continueBytes: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// Names the server writes itself, compared on the name's bytes in place (no allocation);
    /// the UTF-8 length, which a native String knows, filters first.
    static func isServerOwned(_ name: String) -> Bool {
        switch name.utf8.count {
        case 4, 6, 10, 12, 14, 17: break
        default: return false
        }
        return name.utf8.withContiguousStorageIfAvailable(isServerOwned) ?? Array(name.utf8).withUnsafeBufferPointer(isServerOwned)
    }

    private static func isServerOwned(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        switch name.count {
        case 4: return equalsLowercased(name, "date")
        case 6: return equalsLowercased(name, "server")
        case 10: return equalsLowercased(name, "connection") || equalsLowercased(name, "keep-alive")
        case 12: return equalsLowercased(name, "x-request-id")
        case 14: return equalsLowercased(name, "content-length")
        case 17: return equalsLowercased(name, "transfer-encoding")
        default: return false
        }
    }

    /// Whether `bytes`, with A–Z folded to a–z (`ASCIICase`), are exactly `lowercase` (itself
    /// lower-case ASCII).
    @inline(__always)
    private static func equalsLowercased(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = lowercase.utf8Start
        for i in 0..<bytes.count where ASCIICase.lowercased(bytes[i]) != expected[i] { return false }
        return true
    }
}
