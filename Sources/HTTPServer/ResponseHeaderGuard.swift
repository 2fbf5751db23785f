/// The response writer's last line of defence against header injection: whatever a handler
/// built from (a value read back from Redis, an upstream's answer, configuration), a header
/// field whose name is not visible ASCII without `:` or whose value holds CR, LF, NUL or any
/// other control byte (HTAB and DEL included: almanac writes none) is never written. The
/// connection answers 500 instead and logs which field it refused (its name, never its value).
///
/// Every route's response passes here, so a route that forgets to check what it copies into a
/// header still cannot split a response or plant `Set-Cookie`/`Location`. On the hit path the
/// check costs one branch-free pass over the bytes `ResponseHead.write` has just copied into
/// its buffer (`unsafeNameBytes`, `unsafeValueBytes`); only a refused response pays for
/// `firstUnsafeField`, which names the field for the log.
enum ResponseHeaderGuard {
    /// The index of the first field that must not be written, or nil when all may.
    static func firstUnsafeField(_ headers: HTTPHeaders) -> Int? {
        for (index, field) in headers.fields.enumerated() {
            let name = Array(field.name.utf8), value = Array(field.value.utf8)
            let unsafe = name.withUnsafeBytes { unsafeNameBytes($0) } || value.withUnsafeBytes { unsafeValueBytes($0) }
            if unsafe { return index }
        }
        return nil
    }

    /// Whether a name's bytes may not be written: empty, or any byte outside `!`…`~`, or `:`.
    @inline(__always)
    static func unsafeNameBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var bad: UInt8 = bytes.isEmpty ? 1 : 0
        for byte in bytes {
            bad |= (byte &- 0x21 >= 0x5E ? 1 : 0) | (byte == 0x3A ? 1 : 0)
        }
        return bad != 0
    }

    /// Whether a value's bytes may not be written: any of 0x00–0x1F or DEL (UTF-8's bytes
    /// ≥ 0x80 are text).
    @inline(__always)
    static func unsafeValueBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var bad: UInt8 = 0
        for byte in bytes {
            bad |= (byte < 0x20 ? 1 : 0) | (byte == 0x7F ? 1 : 0)
        }
        return bad != 0
    }

    /// What the log says about a refused field: its name's visible bytes (a name may itself be
    /// the injection), at most 64 of them.
    static func describe(_ field: HTTPHeaders.Field) -> String {
        let visible = field.name.utf8.prefix(64).map { ParseByte.isVisible($0) ? $0 : UInt8(ascii: "?") }
        return String(decoding: visible, as: UTF8.self)
    }
}
