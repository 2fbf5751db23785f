import Foundation
import Glibc
import Synchronization

/// A 127.0.0.1 TCP port for a server a test is about to start (a spawned almanac, redis-server,
/// redis-sentinel): free now, and not one the kernel will hand to somebody's outgoing connection
/// before that server binds it.
///
/// Binding port 0 and releasing the number is not enough on a busy machine: the number comes
/// from the kernel's ephemeral range, and in a parallel run another test's `connect` can be given
/// the same port as its local end before the server starts ("port … already in use"). So ports
/// come from OUTSIDE the ephemeral range (`/proc/sys/net/ipv4/ip_local_port_range`), from a
/// process-wide counter that starts at a random place (parallel test processes rarely meet),
/// and each candidate is checked by binding it on 127.0.0.1 (ports in use are skipped).
public func freeLoopbackPort() throws -> Int {
    try LoopbackPortSource.shared.next()
}

/// A 127.0.0.1 port nobody listens on, so connections to it are refused: drawn from the same
/// source as `freeLoopbackPort()`, so no server of this run is given it later and no outgoing
/// connection takes it as its local port.
public func refusedPort() throws -> Int {
    try LoopbackPortSource.shared.next()
}

/// The counter behind `freeLoopbackPort()`: walks a range of ports the kernel never picks as
/// ephemeral, wrapping around, checking each by a real bind.
final class LoopbackPortSource: Sendable {
    struct Exhausted: Error, CustomStringConvertible {
        var description: String
    }

    static let shared = LoopbackPortSource(range: nonEphemeralRange(ephemeral: ephemeralRange()))

    /// Ports handed out come from here (inclusive bounds).
    let range: ClosedRange<Int>
    private let cursor: Mutex<Int>

    init(range: ClosedRange<Int>) {
        self.range = range
        cursor = Mutex(Int.random(in: range))
    }

    /// The next port of `range` that binds on 127.0.0.1 right now; throws after a full lap
    /// (or a few thousand candidates) found none.
    func next() throws -> Int {
        let attempts = min(range.count, 4_096)
        for _ in 0..<attempts {
            let candidate = cursor.withLock { position -> Int in
                let current = position
                position = current >= range.upperBound ? range.lowerBound : current + 1
                return current
            }
            if Self.bindsOnLoopback(candidate) { return candidate }
        }
        throw Exhausted(description: "no free 127.0.0.1 port in \(range) after \(attempts) candidates")
    }

    /// The kernel's ephemeral range from /proc, or Linux's default 32768–60999 when it cannot
    /// be read or does not parse.
    static func ephemeralRange(path: String = "/proc/sys/net/ipv4/ip_local_port_range") -> ClosedRange<Int> {
        let fallback = 32_768...60_999
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return fallback }
        return parseEphemeralRange(text) ?? fallback
    }

    /// "low<whitespace>high\n" → low...high; nil for anything else.
    static func parseEphemeralRange(_ text: String) -> ClosedRange<Int>? {
        let fields = text.unicodeScalars.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
        guard fields.count == 2,
              let low = Int(String(String.UnicodeScalarView(fields[0]))),
              let high = Int(String(String.UnicodeScalarView(fields[1]))),
              1...65_535 ~= low, 1...65_535 ~= high, low <= high else { return nil }
        return low...high
    }

    /// The larger unprivileged stretch left of `ephemeral` (1024 up to it, or after it up to
    /// 65535). Ports below 10000 are left alone where there is room (well-known services live
    /// there). A range of fewer than 1000 ports on both sides keeps the default's outside.
    static func nonEphemeralRange(ephemeral: ClosedRange<Int>) -> ClosedRange<Int> {
        let below = ephemeral.lowerBound - 1 >= 1_024 ? 1_024...(ephemeral.lowerBound - 1) : nil
        let above = ephemeral.upperBound + 1 <= 65_535 ? (ephemeral.upperBound + 1)...65_535 : nil
        let widest = [below, above].compactMap { $0 }.max { $0.count < $1.count }
        guard let widest, widest.count >= 1_000 else { return 10_000...32_767 }
        if widest.upperBound - 10_000 >= 1_000, widest.lowerBound < 10_000 {
            return 10_000...widest.upperBound
        }
        return widest
    }

    /// True when a plain socket (no SO_REUSEADDR, so a port in TIME_WAIT or held by any
    /// listener counts as taken) binds 127.0.0.1:`port`.
    static func bindsOnLoopback(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
