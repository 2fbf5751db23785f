import Synchronization

/// `X-Request-ID` handling: a client's id is echoed so it can correlate logs across hops;
/// anything else gets a cheap, process-unique id.
enum RequestID {
    /// A client-supplied id is kept when it is 1–128 visible ASCII characters (0x21–0x7E):
    /// such a value cannot split a header line or smuggle control bytes into logs.
    static func isAcceptable(_ value: String) -> Bool {
        var count = 0
        for byte in value.utf8 {
            guard byte >= 0x21 && byte <= 0x7E else { return false }
            count += 1
            if count > 128 { return false }
        }
        return count > 0
    }

    private static let counter = Atomic<UInt64>(0)

    /// Eight hex digits drawn at random once per process start (the system's random source),
    /// then a counter: unique within a run, unlikely to collide across restarts, and one atomic
    /// increment to make.
    private static let prefix: UInt64 = UInt64.random(in: 0...UInt64.max) & 0xFFFF_FFFF

    /// `pppppppp-nnnnnnnn` (hex; the counter part grows past 8 digits only after 4 billion ids).
    static func generate() -> String {
        let n = counter.add(1, ordering: .relaxed).newValue
        let counterDigits = max(8, (64 - n.leadingZeroBitCount + 3) / 4)
        return String(unsafeUninitializedCapacity: 9 + counterDigits) { buffer in
            let hex: StaticString = "0123456789abcdef"
            hex.withUTF8Buffer { digits in
                for i in 0..<8 {
                    buffer[i] = digits[Int((prefix >> UInt64(28 - 4 * i)) & 0xF)]
                }
                buffer[8] = UInt8(ascii: "-")
                for i in 0..<counterDigits {
                    buffer[9 + i] = digits[Int((n >> UInt64(4 * (counterDigits - 1 - i))) & 0xF)]
                }
            }
            return 9 + counterDigits
        }
    }

    /// The id the response carries for a request whose header held `value`.
    static func resolve(_ value: String?) -> String {
        if let value, isAcceptable(value) { return value }
        return generate()
    }
}
