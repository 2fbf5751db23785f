import Foundation
import Glibc
import TestSupport
import Testing

/// What a program a test starts inherits: nothing of the test process's signal state, and no
/// descriptor but its standard streams (a copy of a socket would keep a connection the test
/// expects closed open; a copy of a file being written would make running it fail with ETXTBSY).
@Suite(.timeLimit(.minutes(1))) struct ChildProcessTests {
    /// What `program` (run through `sh -c 'exec …'`, so it is the child itself) writes.
    private func output(of program: String) async throws -> String {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let child = try ChildProcess("/bin/sh", ["-c", "exec " + program], environment: ["PATH": "/usr/bin:/bin"], stdout: log)
        #expect(await child.exitStatus(within: 30) == 0)
        return (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    }

    @Test func startsWithDefaultSignalsAndOnlyItsStandardStreams() async throws {
        let signals = try await output(of: "grep -E '^Sig(Ign|Blk):' /proc/self/status")
        // Signal masks as /proc prints them (bit n-1 for signal n), limited to the standard
        // signals 1…31: glibc reserves 32 and 33 for itself.
        func mask(_ name: String) -> UInt64? {
            signals.split(separator: "\n").first { $0.hasPrefix(name + ":") }
                .flatMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) }.map { $0 & 0x7FFF_FFFF }
        }
        #expect(mask("SigIgn") == 0, "no signal ignored (SIGPIPE is, in the test process): \(signals)")
        #expect(mask("SigBlk") == 0, "no signal blocked: \(signals)")

        // A descriptor without close-on-exec, as Foundation's temporary files and the test
        // servers' sockets are.
        let leaked = open("/dev/null", O_RDONLY)
        #expect(leaked > 2)
        defer { close(leaked) }
        let listing = try await output(of: "ls /proc/self/fd")
        let descriptors = listing.split(separator: "\n").compactMap { Int($0) }
        // 0, 1 and 2, and the directory `ls` itself reads.
        #expect(descriptors.count == 4 && [0, 1, 2].allSatisfy(descriptors.contains), "fd \(leaked) open here; the child has \(descriptors)")
    }
}
