import Books
import Rates
import Upstream

extension AlmanacConfiguration {
    /// `upstream.*` stewardship keys and each configured provider's budget, by provider id:
    /// every provider a list names (and Frankfurter, which history always asks), each with the
    /// budget its endpoint holds (`<area>.<provider>.maxRequestsPerSecond` / `.burst`).
    public var stewardConfiguration: StewardConfiguration {
        var c = upstream.steward
        c.limits.staleProbeSeconds = Double(c.requestDeadlineMs) / 1000
        c.providerTimeoutMs = upstream.client.timeoutMs
        let configured = [(rates.providers, rates.endpoints),
                          (history.providers + [FrankfurterProvider.descriptor.id], history.endpoints),
                          (books.providers, books.endpoints)]
        for (ids, endpoints) in configured {
            for id in ids { c.budgets[id] = endpoints[id].budget }
        }
        return c
    }
}
