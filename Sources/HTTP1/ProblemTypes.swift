/// How a service names its problem types (RFC 9457 §3.1.1): the URI a problem's slug becomes,
/// so that `type` leads a reader to the page explaining it. The server has no documentation of
/// its own, so by default (`aboutBlank`) it names none: a problem is `about:blank`, titled with
/// its status's reason phrase (RFC 9457 §4.2.1). An application passes its own base once, to
/// the `Router` and the `CORSPolicy` it builds, and uses it for the problems it makes itself.
public struct ProblemTypes: Sendable, Equatable {
    /// Prefix of every `type` URI, such as `https://example.org/problems#`; nil: `about:blank`.
    public let base: String?

    /// Problem types named `base` + slug.
    public init(base: String) { self.base = base }

    private init() { base = nil }

    /// No documented types: every problem is `about:blank`.
    public static let aboutBlank = ProblemTypes()

    /// The `type` URI of `slug`.
    public func type(of slug: String) -> String {
        guard let base else { return "about:blank" }
        return base + slug
    }
}
