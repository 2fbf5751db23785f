import Glibc
@testable import TestSupport
import Testing

/// The port source behind `freeLoopbackPort()`: it must stay out of the kernel's ephemeral range
/// (where outgoing connections take their local ports) and skip ports somebody holds.
@Suite struct LoopbackPortSourceTests {
    @Test func theKernelRangeParsesStrictly() {
        #expect(LoopbackPortSource.parseEphemeralRange("32768\t60999\n") == 32_768...60_999)
        #expect(LoopbackPortSource.parseEphemeralRange("1024 65000") == 1_024...65_000)
        #expect(LoopbackPortSource.parseEphemeralRange("") == nil)
        #expect(LoopbackPortSource.parseEphemeralRange("60999 32768") == nil)
        #expect(LoopbackPortSource.parseEphemeralRange("0 70000") == nil)
        #expect(LoopbackPortSource.parseEphemeralRange("32768 60999 1") == nil)
        #expect(LoopbackPortSource.ephemeralRange(path: "/nonexistent/ip_local_port_range") == 32_768...60_999)
    }

    @Test func portsComeFromOutsideTheEphemeralRange() {
        #expect(LoopbackPortSource.nonEphemeralRange(ephemeral: 32_768...60_999) == 10_000...32_767)
        #expect(LoopbackPortSource.nonEphemeralRange(ephemeral: 1_024...40_000) == 40_001...65_535)
        #expect(LoopbackPortSource.nonEphemeralRange(ephemeral: 1_024...65_000) == 10_000...32_767)
        let actual = LoopbackPortSource.ephemeralRange()
        let range = LoopbackPortSource.shared.range
        #expect(!range.overlaps(actual))
        for _ in 0..<50 {
            let port = try? freeLoopbackPort()
            #expect(port.map { range.contains($0) && !actual.contains($0) } == true)
        }
    }

    @Test func aPortSomebodyHoldsIsSkipped() throws {
        let source = LoopbackPortSource(range: 20_000...20_063)
        let first = try source.next()
        // Hold the port the counter will offer next lap, then walk a full lap: it never comes back.
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(first).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(holder, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(bound == 0)
        #expect(!LoopbackPortSource.bindsOnLoopback(first))
        var seen: [Int] = []
        for _ in 0..<64 { if let port = try? source.next() { seen.append(port) } }
        #expect(!seen.contains(first))
    }
}
