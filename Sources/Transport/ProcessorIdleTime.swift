import Glibc

/// The machine's idle processor time so far, from the first line of `/proc/stat`
/// (`cpu  user nice system idle iowait …`, in clock ticks summed over every processor): what
/// `LoopGovernor` reads to tell whether another event loop would get a processor of its own.
/// Idle and iowait both count: a processor waiting for a disk runs a ready thread at once.
public enum ProcessorIdleTime {
    /// Idle time summed over the processors, in nanoseconds; nil when `/proc/stat` cannot be
    /// read or does not say.
    public static func read() -> UInt64? {
        let fd = open("/proc/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // The first line is all that is needed; it is well under 256 bytes.
        var bytes = [UInt8](repeating: 0, count: 256)
        let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let ticksPerSecond = sysconf(Int32(_SC_CLK_TCK))
        guard ticksPerSecond > 0, let ticks = idleTicks(inFirstLineOf: bytes[0..<count]) else { return nil }
        let (nanoseconds, overflow) = ticks.multipliedReportingOverflow(by: 1_000_000_000 / UInt64(ticksPerSecond))
        return overflow ? nil : nanoseconds
    }

    /// idle + iowait of `/proc/stat`'s aggregate `cpu` line, in ticks; nil unless the text
    /// starts with that line and both fields are decimal numbers that fit.
    public static func idleTicks<Bytes: Collection>(inFirstLineOf text: Bytes) -> UInt64? where Bytes.Element == UInt8 {
        let line = text.prefix { $0 != UInt8(ascii: "\n") }
        var fields: [UInt64] = []
        var words = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true).makeIterator()
        guard let label = words.next(), label.elementsEqual("cpu".utf8) else { return nil }
        // user nice system idle iowait: the fourth and fifth numbers.
        while fields.count < 5, let word = words.next() {
            guard let value = decimal(word) else { return nil }
            fields.append(value)
        }
        guard fields.count == 5 else { return nil }
        let (sum, overflow) = fields[3].addingReportingOverflow(fields[4])
        return overflow ? nil : sum
    }

    private static func decimal<Digits: Collection>(_ digits: Digits) -> UInt64? where Digits.Element == UInt8 {
        guard !digits.isEmpty, digits.count <= 19 else { return nil }
        var value: UInt64 = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + UInt64(digit - UInt8(ascii: "0"))
        }
        return value
    }
}
