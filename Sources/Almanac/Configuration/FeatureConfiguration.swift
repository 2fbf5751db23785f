import Books
import Rates
import Upstream

extension AlmanacConfiguration {
    /// `upstream.*` stewardship keys and each configured provider's budget, by provider id:
    /// every provider a list names (and Frankfurter, which history always asks), each with the
    /// budget its endpoint holds (`<area>.<provider>.maxRequestsPerSecond` / `.burst`).
    public var stewardConfiguration: StewardConfiguration {
        var c = StewardConfiguration()
        c.limits.maxCooldownSeconds = upstream.maxCooldownSeconds
        c.limits.breakerFailures = upstream.breakerFailures
        c.limits.retryBudgetPercent = upstream.retryBudgetPercent
        c.limits.staleProbeSeconds = Double(upstream.requestDeadlineMs) / 1000
        c.maxQueueMs = upstream.maxQueueMs
        c.providerTimeoutMs = upstream.timeoutMs
        c.requestDeadlineMs = upstream.requestDeadlineMs
        let configured = [(rates.providers, rates.endpoints),
                          (history.providers + [FrankfurterProvider.descriptor.id], history.endpoints),
                          (books.providers, books.endpoints)]
        for (ids, endpoints) in configured {
            for id in ids { c.budgets[id] = endpoints[id].budget }
        }
        return c
    }
}
