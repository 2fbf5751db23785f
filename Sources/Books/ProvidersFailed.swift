import HTTPClient

/// No provider found the book and at least one failed: the lookup's answer is unknown, so it is
/// not cached. The HTTP layer maps it to 502, or 504 when every failure was a timeout.
public struct ProvidersFailed: Error, Sendable, Equatable, CustomStringConvertible {
    /// Each failed provider's error, in the order they were asked.
    public var failures: [UpstreamError]

    public init(failures: [UpstreamError]) { self.failures = failures }

    public var isTimeout: Bool { failures.allSatisfy(\.isTimeout) }

    public var description: String { failures.map(\.description).joined(separator: "; ") }
}
