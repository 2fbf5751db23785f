import Base

/// The response writer's last line of defence against header injection: whatever a handler
/// built from (a value read back from Redis, an upstream's answer, configuration), a header
/// field whose name is not visible ASCII without `:` or whose value holds CR, LF, NUL or any
/// other control byte (HTAB and DEL included: almanac writes none) is never written. The
/// connection answers 500 instead and logs which field it refused (its name, never its value).
///
/// Every route's response passes here, so a route that forgets to check what it copies into a
/// header still cannot split a response or plant `Set-Cookie`/`Location`. On the hit path the
/// check costs one branch-free pass, eight bytes at a time, over the bytes `ResponseHead.write` has just copied into
/// its buffer (`unsafeNameBytes`, `unsafeValueBytes`); only a refused response pays for
/// `firstUnsafeField`, which names the field for the log.
enum ResponseHeaderGuard {
    /// The index of the first field that must not be written, or nil when all may.
    static func firstUnsafeField(_ headers: HTTPHeaders) -> Int? {
        headers.fields.firstIndex(where: isUnsafe)
    }

    /// Whether one field must not be written (its name or its value), checked off the hit path:
    /// naming a refused field, and preparing a block of fields once (`PreparedHeaderLines`).
    static func isUnsafe(_ field: HTTPHeaders.Field) -> Bool {
        let name = Array(field.name.utf8), value = Array(field.value.utf8)
        return name.withUnsafeBytes { unsafeNameBytes($0) } || value.withUnsafeBytes { unsafeValueBytes($0) }
    }

    /// Whether a name's bytes may not be written: empty, or any byte outside `!`…`~`, or `:`.
    @inline(__always)
    static func unsafeNameBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.isEmpty || scan(bytes) { word in
            ByteSearch.marks(below: 0x21, in: word) | (word & ByteSearch.highBits) | ByteSearch.marks(of: 0x7F, in: word) | ByteSearch.marks(of: 0x3A, in: word)
        }
    }

    /// Whether a value's bytes may not be written: any of 0x00–0x1F or DEL (UTF-8's bytes
    /// ≥ 0x80 are text).
    @inline(__always)
    static func unsafeValueBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        scan(bytes) { word in ByteSearch.marks(below: 0x20, in: word) | ByteSearch.marks(of: 0x7F, in: word) }
    }

    // MARK: Eight bytes at a time (the word tests are `ByteSearch`'s)

    /// Whether `test` is non-zero for any 8-byte word of `bytes`. From 8 bytes on, the last
    /// word is the one ending at the last byte (it overlaps the one before: a byte tested twice
    /// is still one of `bytes`); fewer are gathered into one word padded with `!`, which no
    /// test flags.
    @inline(__always)
    static func scan(_ bytes: UnsafeRawBufferPointer, _ test: (UInt64) -> UInt64) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let count = bytes.count
        guard count >= 8 else {
            var word = ByteSearch.lowBits &* 0x21
            for i in 0..<count {
                let shift = UInt64(i &* 8)
                word = (word & ~(0xFF << shift)) | UInt64(base.load(fromByteOffset: i, as: UInt8.self)) << shift
            }
            return test(word) != 0
        }
        var flagged: UInt64 = 0
        var offset = 0
        while offset &+ 8 < count {
            flagged |= test(base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset &+= 8
        }
        flagged |= test(base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
        return flagged != 0
    }

    /// What the log says about a refused field: its name's visible bytes (a name may itself be
    /// the injection), at most 64 of them.
    static func describe(_ field: HTTPHeaders.Field) -> String {
        let visible = field.name.utf8.prefix(64).map { ParseByte.isVisible($0) ? $0 : UInt8(ascii: "?") }
        return String(decoding: visible, as: UTF8.self)
    }
}
