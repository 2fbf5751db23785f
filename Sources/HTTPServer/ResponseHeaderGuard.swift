/// The response writer's last line of defence against header injection: whatever a handler
/// built from (a value read back from Redis, an upstream's answer, configuration), a header
/// field whose name is not a token (RFC 9110 §5.6.2) or whose value holds CR, LF, NUL or any
/// other control byte (HTAB included: almanac writes none) is never written. The connection
/// answers 500 instead and logs which field it refused (its name, never its value).
///
/// Every route's response passes here, so a route that forgets to check what it copies into a
/// header still cannot split a response or plant `Set-Cookie`/`Location`. It costs one scan of
/// the bytes the head writer copies anyway; no allocation.
enum ResponseHeaderGuard {
    /// The index of the first field that must not be written, or nil when all may.
    static func firstUnsafeField(_ headers: HTTPHeaders) -> Int? {
        headers.fields.withUnsafeBufferPointer { fields in
            for i in fields.indices where !isSafe(fields[i]) { return i }
            return nil
        }
    }

    /// Scans the bytes in place (a native string's storage, no copy); the fallback walks the
    /// UTF-8 view of a bridged one.
    @inline(__always)
    static func isSafe(_ field: HTTPHeaders.Field) -> Bool {
        let name = field.name.utf8, value = field.value.utf8
        let nameIsToken = name.withContiguousStorageIfAvailable { !$0.isEmpty && $0.allSatisfy(ParseByte.isTchar) }
            ?? (!name.isEmpty && name.allSatisfy(ParseByte.isTchar))
        guard nameIsToken else { return false }
        return value.withContiguousStorageIfAvailable { $0.allSatisfy(isValueByte) } ?? value.allSatisfy(isValueByte)
    }

    /// Any byte but the controls 0x00–0x1F and DEL (UTF-8's bytes ≥ 0x80 are text).
    @inline(__always)
    static func isValueByte(_ byte: UInt8) -> Bool { byte >= 0x20 && byte != 0x7F }

    /// What the log says about a refused field: its name's visible bytes (a name may itself be
    /// the injection), at most 64 of them.
    static func describe(_ field: HTTPHeaders.Field) -> String {
        let visible = field.name.utf8.prefix(64).map { ParseByte.isVisible($0) ? $0 : UInt8(ascii: "?") }
        return String(decoding: visible, as: UTF8.self)
    }
}
