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

    /// Appends the whole head of `response` to `out` and returns its framing.
    /// - Parameters:
    ///   - version: echoed from the request (`HTTP/1.0` or `HTTP/1.1`).
    ///   - close: `Connection: close` follows; otherwise a 1.0 keep-alive says `keep-alive`.
    @discardableResult
    static func write(
        _ response: HTTPResponse, version: HTTPVersion, isHead: Bool, close: Bool,
        requestID: String, date: [UInt8], serverName: String, into out: inout [UInt8]
    ) -> Framing {
        let framing = framing(status: response.status.code, isHead: isHead,
                              bodyCount: response.body.count,
                              handlerContentLength: response.headers["Content-Length"])
        appendStatusLine(version: version, status: response.status, into: &out)
        append("Date: ", &out)
        out.append(contentsOf: date)
        append("\r\nServer: ", &out)
        out.append(contentsOf: serverName.utf8)
        if let length = framing.contentLength {
            append("\r\nContent-Length: ", &out)
            appendDecimal(length, &out)
        }
        if close {
            append("\r\nConnection: close", &out)
        } else if version == .http1_0 {
            append("\r\nConnection: keep-alive", &out)
        }
        append("\r\nX-Request-ID: ", &out)
        out.append(contentsOf: requestID.utf8)
        append("\r\n", &out)
        for field in response.headers where !isServerOwned(field.name) {
            out.append(contentsOf: field.name.utf8)
            append(": ", &out)
            out.append(contentsOf: field.value.utf8)
            append("\r\n", &out)
        }
        append("\r\n", &out)
        return framing
    }

    /// The interim response sent on `Expect: 100-continue` (RFC 9110 §10.1.1).
    static let continueBytes: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    static func appendStatusLine(version: HTTPVersion, status: HTTPStatus, into out: inout [UInt8]) {
        append(version == .http1_0 ? "HTTP/1.0 " : "HTTP/1.1 ", &out)
        appendDecimal(status.code, &out)
        out.append(32)
        out.append(contentsOf: status.reasonPhrase.utf8)
        append("\r\n", &out)
    }

    /// Names the server writes itself (compared without allocating; first byte filters).
    static func isServerOwned(_ name: String) -> Bool {
        guard let first = name.utf8.first else { return false }
        switch first | 0x20 {
        case UInt8(ascii: "c"):
            return name.equalsIgnoringASCIICase("Content-Length") || name.equalsIgnoringASCIICase("Connection")
        case UInt8(ascii: "d"): return name.equalsIgnoringASCIICase("Date")
        case UInt8(ascii: "s"): return name.equalsIgnoringASCIICase("Server")
        case UInt8(ascii: "t"): return name.equalsIgnoringASCIICase("Transfer-Encoding")
        case UInt8(ascii: "k"): return name.equalsIgnoringASCIICase("Keep-Alive")
        case UInt8(ascii: "x"): return name.equalsIgnoringASCIICase("X-Request-ID")
        default: return false
        }
    }

    @inline(__always)
    private static func append(_ s: StaticString, _ out: inout [UInt8]) {
        s.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    static func appendDecimal(_ value: Int, _ out: inout [UInt8]) {
        if value < 0 {
            out.append(UInt8(ascii: "-"))
            appendDecimal(-value, &out)
            return
        }
        if value < 10 {
            out.append(UInt8(48 + value))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = value
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buf in
            while n > 0 {
                buf[19 - count] = UInt8(48 + n % 10)
                n /= 10
                count += 1
            }
            out.append(contentsOf: buf[(20 - count)...])
        }
    }
}
