import Foundation

/// Committed fuzz seeds that are made from values in the tests (`Fuzz/corpus/<target>/`), kept
/// equal to what the code writes now: a test lists its seeds, and a format change that would
/// leave them stale fails it. `ALMANAC_WRITE_FUZZ_SEEDS=1 swift test --filter …` rewrites them.
public enum FuzzSeeds {
    /// `Fuzz/corpus/<target>` in this checkout.
    public static func directory(_ target: String) -> URL {
        repositoryRoot.appendingPathComponent("Fuzz/corpus/\(target)")
    }

    /// Where a committed seed differs from `seeds` (name → bytes), or is missing; empty when
    /// they all match (or were just written).
    public static func findings(target: String, seeds: [(name: String, bytes: [UInt8])]) -> [String] {
        let directory = directory(target)
        let write = ProcessInfo.processInfo.environment["ALMANAC_WRITE_FUZZ_SEEDS"] == "1"
        var findings: [String] = []
        for seed in seeds {
            let file = directory.appendingPathComponent(seed.name)
            if write {
                do {
                    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                    try Data(seed.bytes).write(to: file)
                } catch {
                    findings.append("\(seed.name): \(error)")
                }
            } else if let committed = FileManager.default.contents(atPath: file.path) {
                if [UInt8](committed) != seed.bytes {
                    findings.append("\(seed.name) differs from what the code writes now (ALMANAC_WRITE_FUZZ_SEEDS=1 rewrites it)")
                }
            } else {
                findings.append("\(seed.name) is missing in \(directory.path) (ALMANAC_WRITE_FUZZ_SEEDS=1 writes it)")
            }
        }
        return findings
    }
}
