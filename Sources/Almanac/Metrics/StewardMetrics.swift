import Upstream

/// The steward's families, read at scrape time: requests not sent by provider and reason,
/// and each provider's state.
enum StewardMetrics {
    static func families(_ steward: Steward) -> [MetricFamily] {
        let statuses = steward.statuses()
        let skipped = steward.skippedCounts()
        let providers = Set(statuses.map(\.provider)).union(skipped.keys).sorted()
        var skipSamples: [MetricFamily.Sample] = []
        for provider in providers {
            for reason in ProviderSkipped.Reason.allCases {
                skipSamples.append(.init(labels: [("provider", provider), ("reason", reason.rawValue)],
                                         value: .number(Double(skipped[provider]?[reason] ?? 0))))
            }
        }
        return [
            MetricFamily(name: "almanac_upstream_skipped_total",
                         help: "Upstream requests not sent because the provider was cooling down, its breaker was open, or its budget was spent.",
                         kind: .counter, samples: skipSamples),
            MetricFamily(name: "almanac_upstream_state",
                         help: "Provider state: 0 closed, 1 open (skipped: breaker open or cooling down), 2 half-open (a probe decides).",
                         kind: .gauge, samples: statuses.map {
                             .init(labels: [("provider", $0.provider)], value: .number(Double($0.gaugeValue)))
                         }),
        ]
    }
}
