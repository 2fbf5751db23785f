import HTTPClient

/// Every configured provider failed; `failures` holds each one's error, in the order tried,
/// so the HTTP layer can answer 504 only when all of them timed out and 502 otherwise, with a
/// detail that lists each provider's failure.
public struct RatesUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    public var failures: [UpstreamError]

    public init(failures: [UpstreamError]) { self.failures = failures }

    /// True when every provider timed out (504 rather than 502).
    public var isTimeout: Bool { !failures.isEmpty && failures.allSatisfy(\.isTimeout) }

    public var description: String {
        failures.isEmpty ? "no rates provider is configured" : failures.map(\.description).joined(separator: "; ")
    }
}

/// Tries providers in configured order; the first table wins. Only cancellation stops the
/// walk early (the caller is gone); any other failure falls through to the next provider.
public enum RatesFailover {
    public static func fetch(from providers: [any RatesProvider], client: any HTTPClient) async throws -> RateTable {
        var failures: [UpstreamError] = []
        for provider in providers {
            do {
                return try await provider.fetch(client: client)
            } catch let error as UpstreamError {
                if error.kind == .cancelled { throw error }
                failures.append(error)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                failures.append(UpstreamError(.other, provider: provider.name, detail: "\(error)"))
            }
        }
        throw RatesUnavailable(failures: failures)
    }
}
