import Rates

/// The price index's families, read at scrape time from the last index report the service
/// served: how many constituents were in each status per currency, and whether any currency
/// fell back to the chain (the alert's signal: one exchange more down and the index is gone).
enum IndexMetrics {
    static func families(_ report: IndexReport?) -> [MetricFamily] {
        var sourceSamples: [MetricFamily.Sample] = []
        for currency in IndexReport.currencies {
            let line = report?.currencies.first { $0.currency == currency }
            for status in IndexSourceStatus.allCases {
                let count = line?.sources.filter { $0.status == status }.count ?? 0
                sourceSamples.append(.init(labels: [("currency", currency), ("status", status.rawValue)], value: .number(Double(count))))
            }
        }
        return [
            MetricFamily(name: "almanac_rates_index_sources",
                         help: "Index constituents by currency and status (used, deviates, stale, failed, skipped) at the last refresh.",
                         kind: .gauge, samples: sourceSamples),
            .single("almanac_rates_index_degraded",
                    help: "1 when a currency's index missed its quorum and the provider chain's own rate was served instead, else 0.",
                    kind: .gauge, value: report?.isDegraded == true ? 1 : 0),
        ]
    }
}
