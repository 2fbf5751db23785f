/// Collects response header fields line by line (as libcurl's header callback hands them over)
/// and rejects what libcurl 7.88 lets through: a duplicate or conflicting `Content-Length`
/// (RFC 9112 §6.3 item 5: a recipient must treat it as an unrecoverable error) or a field line
/// without a colon.
struct ResponseHeaderParser: Sendable {
    private(set) var fields: [String: String] = [:]
    private(set) var contentLength: Int?
    private var lastName: String?
    private var inTrailers = false

    /// Feeds one line (with or without CRLF). Returns the reason to abort, or nil to go on.
    mutating func consume(_ raw: ArraySlice<UInt8>, maxResponseBytes: Int) -> TransferAbort? {
        var line = raw
        while let last = line.last, last == 0x0A || last == 0x0D { line = line.dropLast() }
        if line.starts(with: Array("HTTP/".utf8)) {
            // A new response (a 1xx, or the final one): headers start over.
            self = ResponseHeaderParser()
            return nil
        }
        if line.isEmpty {
            inTrailers = true
            return nil
        }
        if line.first == 0x20 || line.first == 0x09 {
            // obs-fold (RFC 9112 §5.2): replace with a space, append to the previous field.
            guard let name = lastName, !inTrailers else { return .malformed("folded header line without a field") }
            fields[name, default: ""] += " " + String(decoding: line, as: UTF8.self).trimmingSpaces
            return nil
        }
        guard let colon = line.firstIndex(of: 0x3A) else {
            return .malformed("header line without a colon")
        }
        let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self).lowercased()
        let value = String(decoding: line[line.index(after: colon)...], as: UTF8.self).trimmingSpaces
        guard !name.isEmpty, !name.contains(" "), !name.contains("\t") else {
            return .malformed("invalid header field name")
        }
        if inTrailers { return nil }
        if name == "content-length" {
            guard contentLength == nil else { return .malformed("duplicate Content-Length") }
            guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), value.utf8.count <= 18,
                  let length = Int(value) else {
                return .malformed("invalid Content-Length \"\(value.prefix(40))\"")
            }
            if length > maxResponseBytes {
                return .tooLarge("Content-Length \(length) exceeds the limit of \(maxResponseBytes) bytes")
            }
            contentLength = length
        }
        fields[name] = value
        lastName = name
        return nil
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return String(s)
    }
}
