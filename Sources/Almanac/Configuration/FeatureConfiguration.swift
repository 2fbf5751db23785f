import Books
import Rates
import Upstream

extension AlmanacConfiguration {
    /// `upstream.*` stewardship keys and each configured provider's budget, by provider id:
    /// every provider a list names (the index's constituents too, and Frankfurter, which history always asks), each with the
    /// budget its endpoint holds (`<area>.<provider>.maxRequestsPerSecond` / `.burst`).
    public var stewardConfiguration: StewardConfiguration {
        var c = upstream.steward
        c.limits.staleProbeSeconds = Double(c.requestDeadlineMs) / 1000
        c.providerTimeoutMs = upstream.client.timeoutMs
        // The index's constituents: their own endpoints, or the history exchange's of that id.
        let indexOwn = Set(rates.index.endpoints.descriptors.map(\.id))
        let configured = [(rates.providers, rates.endpoints),
                          (rates.index.providers.filter { indexOwn.contains($0) }, rates.index.endpoints),
                          (rates.index.providers.filter { !indexOwn.contains($0) }, history.endpoints),
                          (history.providers + [FrankfurterProvider.descriptor.id], history.endpoints),
                          (books.providers, books.endpoints)]
        for (ids, endpoints) in configured {
            for id in ids { c.budgets[id] = endpoints[id].budget }
        }
        return c
    }
}
