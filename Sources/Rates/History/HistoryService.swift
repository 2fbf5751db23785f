import Cache
import HTTPClient
import Upstream

/// Historical BTC closes, served from immutable blocks of days in the `history` cache namespace.
///
/// A range is cut into each provider's aligned blocks (`HistoryBlockPlan`); each block is one
/// cache entry and one upstream request, so ranges that overlap share blocks (and, through the
/// cache's single flight, share upstream requests while cold), and a range inside fetched
/// blocks costs nothing upstream. USD, EUR and GBP are exchange closes; every other ECB
/// reference currency is the BTC-USD close × the USD→X rate of the latest ECB business day on or
/// before that day (Frankfurter); BTC is 1 on every day with a BTC-USD close.
public final class HistoryService: Sendable {
    /// The namespace name under `cache.*` limits (also `DELETE /admin/cache/history`).
    public static let namespaceName = "history"
    /// Currencies an exchange trades BTC in.
    public static let exchangeCurrencies = ["EUR", "GBP", "USD"]
    /// Every code with history, sorted.
    public static let currencies = (["BTC"] + exchangeCurrencies + FrankfurterProvider.currencies).sorted()
    /// How far back an ECB rate may be carried forward (weekends and holidays; the longest ECB
    /// closure, Good Friday to Easter Monday or Christmas to the weekend after, is 4–5 days).
    public static let fxLookbackDays: Int64 = 10
    /// A block that should hold yesterday but does not is asked for again after this long.
    static let exchangeRetrySeconds: Double = 60
    static let fxRetrySeconds: Double = 900

    public let exchanges: [any HistoryExchangeProvider]
    public let frankfurter: FrankfurterProvider
    public let ttlSeconds: Double
    private let client: any HTTPClient
    private let steward: Steward?
    private let cache: CacheNamespace<HistoryBlockKey, HistoryBlock>
    private let now: WallClock

    /// - Parameter steward: budgets, cooldowns, breakers and deadlines for every provider request
    ///   (nil: straight to `client`).
    public convenience init(configuration: HistoryConfiguration, client: any HTTPClient, cache: CacheStore,
                            steward: Steward? = nil, now: @escaping WallClock = WallClocks.system) {
        self.init(exchanges: configuration.makeExchanges(),
                  frankfurter: configuration.makeReference(),
                  ttlSeconds: configuration.ttlSeconds, client: client, cache: cache, steward: steward, now: now)
    }

    public init(exchanges: [any HistoryExchangeProvider], frankfurter: FrankfurterProvider,
                ttlSeconds: Double = HistoryConfiguration().ttlSeconds,
                client: any HTTPClient, cache: CacheStore, steward: Steward? = nil,
                now: @escaping WallClock = WallClocks.system) {
        self.exchanges = exchanges
        self.frankfurter = frankfurter
        self.ttlSeconds = ttlSeconds
        self.client = client
        self.steward = steward
        self.cache = cache.namespace(HistoryService.namespaceName, keyType: HistoryBlockKey.self, valueType: HistoryBlock.self)
        self.now = now
    }

    /// Wall-clock Unix seconds, as the service sees them.
    public func nowSeconds() -> Int64 { now() }

    /// The last complete UTC day.
    public func yesterday() -> Int64 { HistoryDay.yesterday(unixSeconds: now()) }

    /// Closes of `codes` (each in `currencies`) over `days` (cut to yesterday), when every block
    /// they need is fresh in the cache; nil otherwise (nothing is fetched). Lets routes answer
    /// warm ranges synchronously.
    public func freshCloses(_ codes: [String], days: ClosedRange<Int64>) -> HistoryCloses? {
        let request = HistoryRequest(codes: codes, days: days, yesterday: yesterday())
        guard let days = request.days else { return emptyCloses(request) }
        var parts: [String: [HistorySegment]] = [:]
        for currency in request.exchangeCurrencies {
            var remaining: ClosedRange<Int64>? = days
            for provider in exchanges where provider.currencies.contains(currency) {
                guard let range = remaining else { break }
                guard let (own, rest) = HistoryCoverage.split(range, earliest: provider.plan.earliest) else { continue }
                var lookups: [CacheLookup<HistoryBlock>] = []
                for key in keys(provider.plan, provider.name, currency, own, request.yesterday) {
                    guard let hit = cache.fresh(key) else { return nil }
                    lookups.append(hit)
                }
                parts[currency, default: []].append(HistorySegment(provider: provider.name, days: own, lookups: lookups))
                remaining = rest
            }
        }
        var fx: [CacheLookup<HistoryBlock>] = []
        if let fxDays = request.fxDays(plan: frankfurter.plan) {
            for key in keys(frankfurter.plan, frankfurter.name, "", fxDays, request.yesterday) {
                guard let hit = cache.fresh(key) else { return nil }
                fx.append(hit)
            }
        }
        return assemble(request, days: days, exchange: parts, fx: fx)
    }

    /// Closes of `codes` (each in `currencies`) over `days` (cut to yesterday): from the cache,
    /// fetching missing blocks. Exchanges are tried in configured order; a failing one falls
    /// through to the next, and days before an exchange's first day go to the next one that
    /// holds them. Throws `ProvidersUnavailable` when days some exchange holds could not be had.
    public func closes(_ codes: [String], days: ClosedRange<Int64>) async throws -> HistoryCloses {
        let request = HistoryRequest(codes: codes, days: days, yesterday: yesterday())
        guard let days = request.days else { return emptyCloses(request) }
        async let fxLookups = fxBlocks(request)
        var parts: [String: [HistorySegment]] = [:]
        for currency in request.exchangeCurrencies {
            parts[currency] = try await exchangeSegments(currency, days: days, yesterday: request.yesterday)
        }
        return assemble(request, days: days, exchange: parts, fx: try await fxLookups)
    }

    // MARK: fetching

    /// The fall-through over exchanges for one currency, on the shared `ProviderChain`: the
    /// first exchange answers the days from its first day on; while days before that remain,
    /// the next exchange is asked for those only, and its segment is merged in. A failing
    /// exchange falls through. If days an exchange holds are left without a value because it
    /// failed, the whole answer fails (`ProvidersUnavailable`) rather than silently lacking them.
    private func exchangeSegments(_ currency: String, days: ClosedRange<Int64>, yesterday: Int64) async throws
        -> [HistorySegment] {
        let walk = HistoryWalk(days)
        let candidates = exchanges.filter { $0.currencies.contains(currency) }
        let chain = ProviderChain<[HistorySegment]>(candidates.enumerated().map { position, provider in
            let later = candidates.dropFirst(position + 1)
            return ProviderChain.Provider(name: provider.name) { client in
                guard let range = walk.remaining,
                      let (own, rest) = HistoryCoverage.split(range, earliest: provider.plan.earliest) else { return nil }
                do {
                    let lookups = try await self.blocks(
                        self.keys(provider.plan, provider.name, currency, own, yesterday), plan: provider.plan,
                        yesterday: yesterday, retrySeconds: HistoryService.exchangeRetrySeconds) { span in
                        let closes = try await provider.closes(currency, days: span, client: client)
                        // Gaps are a failure while a later exchange holds these days too.
                        try HistoryAnswerCheck.check(closes, span: span, yesterday: yesterday, provider: provider.name,
                                                     gapsAllowed: !later.contains { $0.plan.earliest <= span.upperBound })
                        return [currency: closes]
                    }
                    walk.remaining = rest
                    return [HistorySegment(provider: provider.name, days: own, lookups: lookups)]
                } catch {
                    walk.failed(provider.plan.earliest, provider: provider.name, error)
                    throw error
                }
            }
        }, client: client, steward: steward, mergingUntil: { _ in walk.remaining == nil }, merge: { $0 + $1 })
        let segments = try await chain.answer() ?? []
        if let unavailable = walk.unavailable() { throw unavailable }
        return segments
    }

    private func fxBlocks(_ request: HistoryRequest) async throws -> [CacheLookup<HistoryBlock>] {
        guard let fxDays = request.fxDays(plan: frankfurter.plan) else { return [] }
        let provider = frankfurter, yesterday = request.yesterday
        let chain = ProviderChain<[CacheLookup<HistoryBlock>]>([
            ProviderChain.Provider(name: provider.name) { client in
                try await self.blocks(self.keys(provider.plan, provider.name, "", fxDays, yesterday), plan: provider.plan,
                                      yesterday: yesterday, retrySeconds: HistoryService.fxRetrySeconds) { span in
                    try await provider.rates(days: span, client: client)
                }
            },
        ], client: client, steward: steward)
        return try await chain.firstAnswer()
    }

    private func keys(_ plan: HistoryBlockPlan, _ provider: String, _ series: String, _ days: ClosedRange<Int64>,
                      _ yesterday: Int64) -> [HistoryBlockKey] {
        plan.indexes(covering: days).compactMap { plan.key(provider: provider, series: series, index: $0, yesterday: yesterday) }
    }

    /// Every block of `keys`, concurrently, each through the cache's single flight.
    private func blocks(_ keys: [HistoryBlockKey], plan: HistoryBlockPlan, yesterday: Int64, retrySeconds: Double,
                        fetch: @escaping @Sendable (ClosedRange<Int64>) async throws -> [String: [Int64: Int64]]) async throws
        -> [CacheLookup<HistoryBlock>] {
        let cache = self.cache, now = self.now, ttl = ttlSeconds
        return try await withThrowingTaskGroup(of: (Int, CacheLookup<HistoryBlock>).self) { group in
            for (n, key) in keys.enumerated() {
                group.addTask {
                    let lookup = try await cache.value(for: key) {
                        guard let span = plan.fetchSpan(key.index, yesterday: key.through) else {
                            return CacheLoad(value: HistoryBlock(span: key.through...key.through, values: [:], fetchedAt: now()),
                                             ttlSeconds: ttl, staleSeconds: 0)
                        }
                        let fetched = HistoryBlock(span: span, values: try await fetch(span), fetchedAt: now())
                        let hasLastDay = HistoryCoverage.hasLastDay(fetched, provider: key.provider)
                        let yesterday = HistoryDay.yesterday(unixSeconds: fetched.fetchedAt)
                        let block = HistoryBlock(firstDay: fetched.firstDay, dayCount: fetched.dayCount, series: fetched.series,
                                                 fetchedAt: fetched.fetchedAt, isFinal: hasLastDay || key.through < yesterday)
                        let life = HistoryBlockLifetime.of(
                            key: key, hasLastDay: hasLastDay, plan: plan, yesterday: yesterday, nowSeconds: fetched.fetchedAt,
                            ttlSeconds: ttl, retrySeconds: retrySeconds)
                        return CacheLoad(value: block, ttlSeconds: life.ttlSeconds, staleSeconds: life.staleSeconds)
                    }
                    return (n, lookup)
                }
            }
            var out = [CacheLookup<HistoryBlock>?](repeating: nil, count: keys.count)
            for try await (n, lookup) in group { out[n] = lookup }
            return out.compactMap { $0 }
        }
    }

    // MARK: assembling

    private func emptyCloses(_ request: HistoryRequest) -> HistoryCloses {
        let day = request.yesterday + 1
        return HistoryCloses(days: day...day, values: [:], source: exchanges.first?.name ?? "",
                             updated: HistoryDay.startSeconds(day), validator: "empty-\(day)",
                             freshness: CacheFreshness(outcome: .hit, ageSeconds: 0, freshnessLeftSeconds: ttlSeconds))
    }

    private func assemble(_ request: HistoryRequest, days: ClosedRange<Int64>,
                          exchange: [String: [HistorySegment]],
                          fx: [CacheLookup<HistoryBlock>]) -> HistoryCloses {
        let count = Int(days.upperBound - days.lowerBound + 1)
        var summary = HistoryLookupSummary(finalSeconds: ttlSeconds)
        summary.add("\(days.lowerBound)..\(days.upperBound)")
        var sources: [String] = []
        var rows: [String: [Int64]] = [:]
        for currency in request.exchangeCurrencies {
            var row = [Int64](repeating: 0, count: count)
            for segment in exchange[currency] ?? [] {
                if !sources.contains(segment.provider) { sources.append(segment.provider) }
                for lookup in segment.lookups {
                    summary.add(lookup)
                    HistoryCoverage.copy(lookup.value, code: currency, within: segment.days, into: &row, firstDay: days.lowerBound)
                }
            }
            rows[currency] = row
        }
        let usd = rows["USD"] ?? []
        if request.codes.contains("BTC") {
            rows["BTC"] = usd.map { $0 > 0 ? HistoryFixed.one : 0 }
        }
        if !request.fxCodes.isEmpty {
            sources.append(frankfurter.name)
            for lookup in fx { summary.add(lookup) }
            for code in request.fxCodes {
                rows[code] = HistoryCoverage.crossed(usd, firstDay: days.lowerBound, code: code, fx: fx.map(\.value),
                                                     lookback: HistoryService.fxLookbackDays)
            }
        }
        var values: [String: [Int64]] = [:]
        for code in request.codes { values[code] = rows[code] }
        let updated = summary.updated > 0 ? summary.updated : HistoryDay.startSeconds(request.yesterday + 1)
        summary.add(String(updated))
        return HistoryCloses(days: days, values: values, source: sources.isEmpty ? (exchanges.first?.name ?? "") : sources.joined(separator: "+"),
                             updated: updated, validator: summary.validator,
                             freshness: summary.freshness(unboundedLeft: ttlSeconds))
    }
}

/// What one closes request needs: its days cut to yesterday and to the first day any price
/// exists, and which series (exchange currencies, ECB rates) its codes depend on.
struct HistoryRequest {
    let codes: [String]
    let yesterday: Int64
    /// Nil when no day of the range can have a close.
    let days: ClosedRange<Int64>?
    let exchangeCurrencies: [String]
    let fxCodes: [String]

    init(codes: [String], days: ClosedRange<Int64>, yesterday: Int64) {
        self.codes = codes
        self.yesterday = yesterday
        let first = max(days.lowerBound, BitstampHistoryProvider.earliest)
        let last = min(days.upperBound, yesterday)
        self.days = first <= last ? first...last : nil
        let fx = codes.filter { FrankfurterProvider.currencies.contains($0) }
        self.fxCodes = fx
        var exchange = Set(codes.filter { HistoryService.exchangeCurrencies.contains($0) })
        if !fx.isEmpty || codes.contains("BTC") { exchange.insert("USD") }
        self.exchangeCurrencies = exchange.sorted()
    }

    /// The days of ECB rates needed: the range plus the look-back, from the ECB's first day.
    func fxDays(plan: HistoryBlockPlan) -> ClosedRange<Int64>? {
        guard !fxCodes.isEmpty, let days else { return nil }
        let first = max(days.lowerBound - HistoryService.fxLookbackDays, plan.earliest)
        return first <= days.upperBound ? first...days.upperBound : nil
    }
}
