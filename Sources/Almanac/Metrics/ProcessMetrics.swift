import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The standard `process_*` metrics, read from `/proc` at scrape time (Linux). Where
/// `/proc` is unavailable the family is simply left out rather than reported as 0.
enum ProcessMetrics {
    static func families() -> [MetricFamily] {
        var out: [MetricFamily] = []
        if let rss = residentMemoryBytes() {
            out.append(.single("process_resident_memory_bytes", help: "Resident memory size in bytes.", kind: .gauge, value: Double(rss)))
        }
        if let fds = openFileDescriptors() {
            out.append(.single("process_open_fds", help: "Number of open file descriptors.", kind: .gauge, value: Double(fds)))
        }
        if let max = maxFileDescriptors() {
            out.append(.single("process_max_fds", help: "Maximum number of open file descriptors.", kind: .gauge, value: Double(max)))
        }
        if let start = startTimeSeconds() {
            out.append(.single("process_start_time_seconds", help: "Start time of the process since the Unix epoch in seconds.",
                               kind: .gauge, value: start))
        }
        return out
    }

    /// Second field of `/proc/self/statm` (pages) times the page size.
    static func residentMemoryBytes() -> Int? {
        guard let statm = read("/proc/self/statm") else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    static func openFileDescriptors() -> Int? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return nil }
        return entries.count
    }

    /// The soft limit of "Max open files" in `/proc/self/limits`.
    static func maxFileDescriptors() -> Int? {
        guard let limits = read("/proc/self/limits") else { return nil }
        for line in limits.split(separator: "\n") where line.hasPrefix("Max open files") {
            let parts = line.dropFirst("Max open files".count).split(separator: " ")
            if let first = parts.first { return Int(first) }
        }
        return nil
    }

    /// Field 22 of `/proc/self/stat` (clock ticks after boot) plus `btime` from `/proc/stat`.
    static func startTimeSeconds() -> Double? {
        guard let stat = read("/proc/self/stat"), let close = stat.lastIndex(of: ")"),
              let system = read("/proc/stat") else { return nil }
        // Fields after the command name (which may hold spaces) start at field 3.
        let rest = stat[stat.index(after: close)...].split(separator: " ")
        guard rest.count > 19, let ticks = Double(rest[19]) else { return nil }
        guard let btimeLine = system.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }),
              let btime = Double(btimeLine.dropFirst(6)) else { return nil }
        let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
        return btime + ticks / (hz > 0 ? hz : 100)
    }

    private static func read(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
