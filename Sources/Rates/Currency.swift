/// What almanac says about a currency besides its rate: its code, English name and symbol.
public struct Currency: Sendable, Equatable {
    /// Upper-case three-letter code.
    public var code: String
    /// English name, e.g. "United States Dollar" (the wording CoinDesk's BPI used).
    public var name: String
    /// Display symbol (`$`, `€`, `zł`), or nil when none is known (codes outside the built-in table).
    public var symbol: String?

    public init(code: String, name: String, symbol: String?) {
        self.code = code
        self.name = name
        self.symbol = symbol
    }
}

/// Where names and symbols come from, in order: the built-in ISO 4217 table, Bitcoin
/// itself, what the upstream said (CoinDesk's `description` and decoded `symbol`), and
/// finally the code alone (name = code, symbol = nil) — e.g. `ETH` from coinbase or `XAU`
/// from coingecko.
public enum CurrencyDirectory {
    /// Bitcoin, the base every table is quoted in; not an ISO 4217 currency.
    public static let bitcoin = Currency(code: "BTC", name: "Bitcoin", symbol: "₿")

    private static let isoByCode: [String: Currency] = {
        var byCode: [String: Currency] = [:]
        for entry in ISO4217.active { byCode[entry.code] = entry }
        return byCode
    }()

    /// The built-in entry for `code` (ISO 4217 or BTC), if any.
    public static func builtIn(_ code: String) -> Currency? {
        if code == "BTC" { return bitcoin }
        return isoByCode[code]
    }

    /// The best description of `code` given what `table`'s upstream said about it.
    public static func currency(_ code: String, in table: RateTable) -> Currency {
        if let known = builtIn(code) { return known }
        if let upstream = table.upstreamCurrencies[code] { return upstream }
        return Currency(code: code, name: code, symbol: nil)
    }
}
