// libFuzzer target `shared-values`: the input is something read from Redis, as another
// replica wrote it, as damage left it, or as anyone with access to Redis wrote it.
//
// 1. As a record (a value's own bytes): every decoder reads it (each accepts only its own
//    tag and version, so a seed of one kind exercises that one): none may trap, and one that
//    accepts the bytes must produce a value that writes exactly those bytes again and reads
//    back equal, validator included (SharedCacheValueProbe, linked from Sources/TestSupport,
//    the same check the unit tests make).
// 2. As the whole envelope stored under one key of every namespace (rates, history, books,
//    covers), through every check a replica makes before serving it
//    (`SharedCacheLayer.verdict`): what is accepted must be exactly what almanac writes for
//    that key — the envelope names the key, the value re-encodes to the same bytes, the
//    validator is the value's own and visible ASCII, the value belongs to the key, the times
//    are within the namespace's limits — and no byte that reaches a header is a control byte.
// 3. As the steward script's eight status fields (split at newlines), read as a replica reads
//    them (`SharedStewardState.status(fromScriptFields:)`): a status shown is within the caps.
import Books
import Cache
import FuzzSupport
import Rates
import SharedSteward
import TestSupport
import Upstream

/// The fuzz's clock (Unix ms): the seeds' envelopes are stored at it.
let now: Int64 = 1_700_000_000_000

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
    checkEnvelope(bytes)
    checkStewardFields(bytes)
    return 0
}

/// Part 2: the input as the envelope of one key in each namespace.
func checkEnvelope(_ bytes: [UInt8]) {
    let rates = SharedValueLimits(ttlSeconds: 60, staleSeconds: 600)
    let history = SharedValueLimits(ttlSeconds: 2_592_000, staleSeconds: 2_592_000)
    let books = SharedValueLimits(ttlSeconds: 86_400, staleSeconds: 604_800)
    let plan = HistoryBlockPlan(size: 10, earliest: 0)
    guard let isbn = try? ISBN(parsing: "9780306406157"),
          let block = plan.key(provider: "bitstamp", series: "USD", index: 2_000, yesterday: 20_009) else {
        check(false, "the fuzz's keys")
        return
    }
    served(bytes, namespace: "rates", key: "table", RateTable.self, limits: rates)
    served(bytes, namespace: "history", key: block, HistoryBlock.self, limits: history)
    served(bytes, namespace: "books", key: isbn, BookAnswer.self, limits: books)
    if let cover = served(bytes, namespace: "covers", key: isbn, CoverAnswer.self, limits: books) {
        check(cover.contentType.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "a cover's content type with a control byte")
    }
}

/// What a replica would serve from `bytes` at `key`, after checking that it is what almanac
/// writes for that key.
@discardableResult
func served<Key: SharedCacheKey, Value: SharedCacheValue>(_ bytes: [UInt8], namespace: String, key: Key, _ type: Value.Type,
                                                            limits: SharedValueLimits) -> Value? {
    guard case .success(let (value, envelope)) = SharedCacheLayer.verdict(bytes, namespace: namespace, key: key, as: type,
                                                                           now: now, limits: limits) else { return nil }
    let keyBytes = key.sharedCacheKeyBytes
    check(envelope.key == Array(namespace.utf8) + [UInt8(ascii: ":")] + keyBytes, "\(namespace): served under another key")
    check(value.sharedCacheBytes == envelope.value, "\(namespace): the value does not write the bytes it was read from")
    check(envelope.validator == value.cacheValidator, "\(namespace): a validator that is not the value's")
    check(envelope.validator.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "\(namespace): a validator byte a header cannot carry")
    check(value.belongs(toSharedCacheKey: keyBytes), "\(namespace): a value of another key")
    check(envelope.storedAtMilliseconds <= now + 5_000, "\(namespace): stored in the future")
    check(envelope.expiresAtMilliseconds - envelope.storedAtMilliseconds <= Int64(limits.ttlSeconds * 1_000) + 1,
          "\(namespace): fresh longer than the TTL")
    check(envelope.staleUntilMilliseconds - envelope.expiresAtMilliseconds <= Int64(limits.staleSeconds * 1_000) + 1,
          "\(namespace): stale longer than configured")
    return value
}

/// Part 3: the input as the script's status fields of a budgeted provider.
func checkStewardFields(_ bytes: [UInt8]) {
    var configuration = StewardConfiguration()
    configuration.budgets["budgeted"] = ProviderBudget(maxRequestsPerSecond: 5, burst: 10)
    let fields: [String?] = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 7, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    for provider in ["budgeted", "unbudgeted"] {
        guard let status = SharedStewardState.status(fromScriptFields: fields, provider: provider, configuration: configuration) else {
            continue
        }
        let queueDebt = Double(configuration.maxQueueMs) / 1_000 * status.maxRequestsPerSecond
        check(status.cooldownSeconds.isFinite && status.cooldownSeconds <= configuration.limits.maxCooldownSeconds, "cooldown past the cap")
        check(status.breakerOpenForSeconds.isFinite && status.breakerOpenForSeconds <= 60, "breaker opening past 60 s")
        check(status.tokens.isFinite && status.tokens <= Double(status.burst) && status.tokens >= -queueDebt, "tokens out of range")
        check(status.consecutiveFailures <= configuration.limits.breakerFailures, "more failures than open the breaker")
    }
}
