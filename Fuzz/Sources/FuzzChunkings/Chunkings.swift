/// The other ways one fuzz input can reach an incremental parser: split in two and in three
/// at points derived from the input itself (so a finding replays from its input alone), and
/// byte by byte (inputs up to 4 KiB). An incremental parser must end exactly as it does on
/// the whole input, however the bytes arrive; the request and RESP targets both check that.
public enum Chunkings {
    /// Each alternative with a label naming it for a finding's message.
    public static func alternatives(of bytes: [UInt8]) -> [(label: String, chunks: [ArraySlice<UInt8>])] {
        var seed: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { seed = (seed ^ UInt64(b)) &* 0x100_0000_01b3 }
        let size = bytes.count
        var found: [(label: String, chunks: [ArraySlice<UInt8>])] = []
        if size >= 2 {
            let cut = Int(seed % UInt64(size - 1)) + 1
            found.append(("split at \(cut)", [bytes[..<cut], bytes[cut...]]))
            let a = Int((seed >> 20) % UInt64(size + 1)), b = Int((seed >> 40) % UInt64(size + 1))
            let (lo, hi) = (min(a, b), max(a, b))
            found.append(("split at \(lo), \(hi)", [bytes[..<lo], bytes[lo..<hi], bytes[hi...]]))
        }
        if size <= 4096 {
            found.append(("byte-by-byte", bytes.indices.map { bytes[$0...$0] }))
        }
        return found
    }
}
