import Base
import HTTPClient
import Upstream

/// A source of Bitcoin rate tables. Implementations fetch one upstream document and decode
/// it; they throw `UpstreamError` only — transport failures as the client reported them,
/// HTTP errors as `.other`, undecodable bodies as `.malformed` with a detail naming the
/// field (`missing field data.rates`) — so callers can fail over and map 502/504 uniformly.
public protocol RatesProvider: Sendable {
    /// Stable provider name (`coinbase`), as in `rates.providers` and in `source`.
    var name: String { get }
    func fetch(client: any HTTPClient) async throws -> RateTable
}

/// A rates provider whose answer is one JSON document at `url`, stamped with the fetch time
/// when the upstream sends none (coinbase, coingecko): `fetch` is GET, require 200, parse,
/// `decode` at `now()`.
public protocol JSONRatesProvider: RatesProvider {
    var url: String { get }
    var now: WallClock { get }
    /// Decodes a parsed body; public for tests and fuzzing.
    func decode(_ json: JSONValue, fetchedAt: Int64) throws(UpstreamError) -> RateTable
}

extension JSONRatesProvider {
    public func fetch(client: any HTTPClient) async throws -> RateTable {
        try await ProviderFetch.table(url, provider: name, client: client) { json throws(UpstreamError) in
            try decode(json, fetchedAt: now())
        }
    }
}

extension ProviderChain<RateTable> {
    /// Rates providers in failover order: the first table wins (`firstAnswer()`).
    public init(rates providers: [any RatesProvider], client: any HTTPClient, steward: Steward? = nil) {
        self.init(providers.map { provider in
            ProviderChain.Provider(name: provider.name) { client in try await provider.fetch(client: client) }
        }, client: client, steward: steward)
    }
}

/// Shared plumbing for providers: the GET, the status check and JSON parsing.
enum ProviderFetch {
    static func json(_ url: String, provider: String, client: any HTTPClient) async throws -> JSONValue {
        let request = UpstreamRequest(url: url, headers: [UpstreamHeader("Accept", "application/json")], provider: provider)
        let response = try await client.get(request)
        try UpstreamSuccess.require(response, provider: provider, url: url)
        return try decoding(url) { () throws(UpstreamError) in try parse(response.body, provider: provider) }
    }

    /// The whole fetch of a JSON rates provider: GET `url`, require a 200, parse, then `decode`
    /// the document (its failure carries `url` for the log line).
    static func table(_ url: String, provider: String, client: any HTTPClient,
                      decode: (JSONValue) throws(UpstreamError) -> RateTable) async throws -> RateTable {
        let json = try await json(url, provider: provider, client: client)
        return try decoding(url) { () throws(UpstreamError) in try decode(json) }
    }

    /// Runs a provider's decoding, attaching `url` to its failure for the log line.
    static func decoding<T>(_ url: String, _ body: () throws(UpstreamError) -> T) throws(UpstreamError) -> T {
        do {
            return try body()
        } catch {
            throw error.at(url)
        }
    }

    static func parse(_ body: [UInt8], provider: String) throws(UpstreamError) -> JSONValue {
        try UpstreamJSON.parse(body, provider: provider)
    }
}

/// Decoding helpers whose errors name the provider and the JSON path.
struct UpstreamDecoding {
    var provider: String

    func missing(_ path: String) -> UpstreamError {
        UpstreamError(.malformed, provider: provider, detail: "missing field \(path)")
    }

    func wrongType(_ path: String, expected: String, got value: JSONValue) -> UpstreamError {
        UpstreamError(.malformed, provider: provider, detail: "field \(path) is not \(expected) (got \(value.kindDescription))")
    }

    func invalid(_ path: String, _ reason: String) -> UpstreamError {
        UpstreamError(.malformed, provider: provider, detail: "field \(path) \(reason)")
    }

    func object(_ value: JSONValue?, _ path: String) throws(UpstreamError) -> [String: JSONValue] {
        guard let value else { throw missing(path) }
        guard case let .object(members) = value else { throw wrongType(path, expected: "an object", got: value) }
        return members
    }

    func root(_ value: JSONValue) throws(UpstreamError) -> [String: JSONValue] {
        guard case let .object(members) = value else {
            throw UpstreamError(.malformed, provider: provider, detail: "response is \(value.kindDescription), not a JSON object")
        }
        return members
    }
}
