// libFuzzer target `shared-values`: the input is a record read from the cache's shared layer
// (Redis), as another replica wrote it or as damage left it. Every decoder reads it (each
// accepts only its own tag and version, so a seed of one kind exercises that one): none may
// trap, and one that accepts the bytes must produce a value that writes exactly those bytes
// again and reads back equal, validator included (SharedCacheValueProbe, linked from
// Sources/TestSupport, the same check the unit tests make).
import Books
import Cache
import FuzzSupport
import Rates

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = inputBytes(data, size)
    let findings = [
        SharedCacheValueProbe.selfConsistencyFinding(RateTable.self, bytes),
        SharedCacheValueProbe.selfConsistencyFinding(IndexedRates.self, bytes),
        SharedCacheValueProbe.selfConsistencyFinding(HistoryBlock.self, bytes),
        SharedCacheValueProbe.selfConsistencyFinding(BookAnswer.self, bytes),
        SharedCacheValueProbe.selfConsistencyFinding(CoverAnswer.self, bytes),
        SharedCacheValueProbe.selfConsistencyFinding(VolumeSearchResult.self, bytes),
    ]
    for finding in findings {
        check(finding == nil, finding ?? "")
    }
    return 0
}
