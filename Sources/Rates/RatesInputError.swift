import Base
import HTTPClient

/// A client mistake in a rates request, as the HTTP layer needs it: malformed input (400)
/// or a well-formed code the current table does not quote (404). `detail` names the input.
public struct RatesInputError: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// 400: not three letters, a bad amount, a list too long.
        case malformed
        /// 404: a well-formed code the table does not quote.
        case unknownCurrency
        /// 502: the provider listed the currency with an unusable value (`upstream` says which
        /// provider and field).
        case unavailableCurrency
    }

    public var kind: Kind
    /// Stable problem slug (`invalid-currency-code`, `invalid-amount`, `unknown-currency`).
    public var slug: String
    public var detail: String
    /// For `.unavailableCurrency`: the decoding error naming the provider and the field.
    public var upstream: UpstreamError?

    public init(kind: Kind, slug: String, detail: String, upstream: UpstreamError? = nil) {
        self.kind = kind
        self.slug = slug
        self.detail = detail
        self.upstream = upstream
    }

    static func malformedCode(_ parameter: String, _ value: String) -> RatesInputError {
        RatesInputError(kind: .malformed, slug: "invalid-currency-code",
                        detail: "Invalid \(parameter) \"\(EchoedText.clipped(value))\": a currency code is three letters, such as USD.")
    }

    static func unknown(_ codes: [String]) -> RatesInputError {
        let list = codes.joined(separator: ", ")
        let noun = codes.count == 1 ? "currency" : "currencies"
        return RatesInputError(kind: .unknownCurrency, slug: "unknown-currency",
                               detail: "Unknown \(noun) \(list): see /v1/currencies for the codes the current rates cover.")
    }

    /// `code` is in the table's provider answer but its value is unusable (`error` names the
    /// provider and the field): a 502, as for any other malformed upstream answer.
    static func unavailable(_ code: String, _ error: UpstreamError) -> RatesInputError {
        RatesInputError(kind: .unavailableCurrency, slug: "upstream-failed",
                        detail: "\(code) is unavailable: \(error.description)", upstream: error)
    }
}
