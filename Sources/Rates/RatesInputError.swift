/// A client mistake in a rates request, as the HTTP layer needs it: malformed input (400)
/// or a well-formed code the current table does not quote (404). `detail` names the input.
public struct RatesInputError: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// 400: not three letters, a bad amount, a list too long.
        case malformed
        /// 404: a well-formed code the table does not quote.
        case unknownCurrency
    }

    public var kind: Kind
    /// Stable problem slug (`invalid-currency-code`, `invalid-amount`, `unknown-currency`).
    public var slug: String
    public var detail: String

    public init(kind: Kind, slug: String, detail: String) {
        self.kind = kind
        self.slug = slug
        self.detail = detail
    }

    static func malformedCode(_ parameter: String, _ value: String) -> RatesInputError {
        RatesInputError(kind: .malformed, slug: "invalid-currency-code",
                        detail: "Invalid \(parameter) \"\(RatesInputError.clip(value))\": a currency code is three letters, such as USD.")
    }

    static func unknown(_ codes: [String]) -> RatesInputError {
        let list = codes.joined(separator: ", ")
        let noun = codes.count == 1 ? "currency" : "currencies"
        return RatesInputError(kind: .unknownCurrency, slug: "unknown-currency",
                               detail: "Unknown \(noun) \(list): see /v1/currencies for the codes the current rates cover.")
    }

    /// Echoed input is clipped so a 4 KiB query cannot make a 4 KiB error.
    static func clip(_ value: String) -> String {
        value.count <= 40 ? value : String(value.prefix(40)) + "…"
    }
}
