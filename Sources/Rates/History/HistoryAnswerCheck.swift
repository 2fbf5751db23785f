import HTTPClient

/// What an exchange's answer for one block must hold before it is stored: a block lives for
/// up to `rates.history.ttlSeconds` (30 days), so an answer that silently lacks days would be
/// served as "no close" for a month and the upstream never asked again.
///
/// Every day of the span is accounted for, except yesterday (an exchange may not have closed
/// it yet; such a block is stored briefly and asked for again, `HistoryBlockLifetime`). An
/// answer holding none of the required days is a failure; one lacking some of them is a
/// failure while another exchange is left to ask, so the chain moves on and nothing is
/// cached. Only the last exchange asked may leave days absent: a day no exchange holds
/// (an outage day on every one of them) is then stored as absent rather than failing forever.
/// (Days outside the span are refused by the decoders, `UpstreamDecoding.candleDay(_:_:asked:)`.)
enum HistoryAnswerCheck {
    static func check(_ closes: [Int64: Int64], span: ClosedRange<Int64>, yesterday: Int64, provider: String,
                      gapsAllowed: Bool) throws(UpstreamError) {
        var missing = 0
        var firstMissing: Int64?
        for day in span where day != yesterday && closes[day] == nil {
            missing += 1
            if firstMissing == nil { firstMissing = day }
        }
        guard missing > 0, let first = firstMissing else { return }
        let range = "\(HistoryDay.text(span.lowerBound))…\(HistoryDay.text(span.upperBound))"
        let required = span.count - (span.contains(yesterday) ? 1 : 0)
        if missing == required {
            throw UpstreamError(.malformed, provider: provider, detail: "answered no close for the days asked (\(range))")
        }
        guard gapsAllowed else {
            throw UpstreamError(.malformed, provider: provider,
                                detail: "answered without \(missing) of the days asked (\(range)), the first \(HistoryDay.text(first))")
        }
    }
}
