import Base
import Upstream

/// One upstream provider as an operator (or a harness) configures it: its name, the area it
/// serves, its base URL keys and their environment variables, its budget key and its default
/// location. `almanac check-config --providers` prints one per line, so the scripts and test
/// harnesses that point every provider at a stub, or lift every budget, read the registry
/// instead of restating it: a provider added to a registry list appears here with no other edit.
public struct ProviderListing: Sendable, Equatable {
    /// The id (`coinbase-exchange`), as in provider lists, metrics labels and `source`.
    public let name: String
    /// Which part of almanac asks it: `rates`, `rates.index`, `rates.history` or `books`.
    public let domain: String
    /// Its key section (`rates.coinbaseExchange`).
    public let section: String
    /// Every key of its section that holds an upstream location (`….baseUrl`, and a books
    /// provider's `coversBaseUrl`), so "at the stub" leaves none at the real URL.
    public let baseURLKeys: [String]
    /// The same keys as `ALMANAC_…` environment variables, in the same order.
    public let baseURLEnvironment: [String]
    /// `<section>.maxRequestsPerSecond`: 0 lifts its steward budget.
    public let budgetKey: String
    public let budgetEnvironment: String
    public let defaultBaseURL: String

    /// Every provider a configuration with these defaults (and registries) knows, in
    /// documentation order. Derived from the same key table the loader reads, so a name here
    /// is always an accepted key.
    public static func all(for defaults: AlmanacConfiguration = AlmanacConfiguration()) -> [ProviderListing] {
        let keys = ConfigurationKey.all(for: defaults)
        let areas: [(domain: String, keyArea: String, descriptors: [ProviderDescriptor])] = [
            ("rates", "rates", defaults.rates.endpoints.descriptors),
            ("rates.index", "rates", defaults.rates.index.endpoints.descriptors),
            ("rates.history", "rates", defaults.history.endpoints.descriptors),
            ("books", "books", defaults.books.endpoints.descriptors),
        ]
        return areas.flatMap { area in
            area.descriptors.map { descriptor in
                let section = area.keyArea + "." + descriptor.configName
                let urlKeys = keys.filter { $0.path.hasPrefix(section + ".") && isLocationKey($0.path) }
                let budget = keys.first { $0.path == section + ".maxRequestsPerSecond" }
                return ProviderListing(
                    name: descriptor.id, domain: area.domain, section: section,
                    baseURLKeys: urlKeys.map(\.path), baseURLEnvironment: urlKeys.map(\.environmentName),
                    budgetKey: budget?.path ?? "", budgetEnvironment: budget?.environmentName ?? "",
                    defaultBaseURL: descriptor.defaultBaseURL)
            }
        }
    }

    /// `baseUrl` or `…BaseUrl` as the last path component: a key naming an upstream location.
    private static func isLocationKey(_ path: String) -> Bool {
        guard let last = path.split(separator: ".").last else { return false }
        return last == "baseUrl" || last.hasSuffix("BaseUrl")
    }

    /// One compact JSON object (`check-config --providers` prints one a line), keys in a fixed order.
    public var json: String {
        var w = JSONWriter()
        w.raw("{")
        w.key("name", first: true); w.string(name)
        w.key("domain"); w.string(domain)
        w.key("section"); w.string(section)
        w.key("baseUrlKeys"); strings(baseURLKeys, into: &w)
        w.key("baseUrlEnv"); strings(baseURLEnvironment, into: &w)
        w.key("budgetKey"); w.string(budgetKey)
        w.key("budgetEnv"); w.string(budgetEnvironment)
        w.key("defaultBaseUrl"); w.string(defaultBaseURL)
        w.raw("}")
        return w.text
    }

    private func strings(_ values: [String], into w: inout JSONWriter) {
        w.raw("[")
        for (i, value) in values.enumerated() {
            if i > 0 { w.raw(",") }
            w.string(value)
        }
        w.raw("]")
    }
}

extension AlmanacConfiguration {
    /// Every registered provider's location keys set to `baseURL` (a stub upstream on loopback),
    /// and, when `unbudgeted`, every steward budget lifted: the harnesses' one way to keep a
    /// run off the real upstreams, whatever providers the registries hold.
    public mutating func pointEveryProvider(at baseURL: String, unbudgeted: Bool = false) {
        let keys = ConfigurationKey.all(for: self)
        for provider in ProviderListing.all(for: self) {
            for path in provider.baseURLKeys + (unbudgeted ? [provider.budgetKey] : []) {
                guard let key = keys.first(where: { $0.path == path }) else { continue }
                _ = key.apply(&self, .text(path == provider.budgetKey ? "0" : baseURL))
            }
        }
    }
}
