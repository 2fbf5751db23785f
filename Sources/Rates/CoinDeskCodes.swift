/// Currency codes as CoinDesk's Bitcoin Price Index spoke them: besides `BTC`, the index
/// accepted and listed `XBT` (the ISO 4217-style code some exchanges use for bitcoin), and
/// clients written against it still ask for `currentprice/XBT.json` or read `bpi.XBT`.
///
/// Every CoinDesk-compatible endpoint that takes a currency goes through `rateCode(_:)`, so
/// XBT is answered as BTC (rate 1), while the answer keeps the code the client asked for
/// (`bpi.XBT.code == "XBT"`), as CoinDesk's own answers did. almanac's own endpoints
/// (`/v1/rates`, `/v1/convert`) stay strict: there, XBT is an unknown code.
public enum CoinDeskCodes {
    /// The legacy code CoinDesk accepted for bitcoin.
    public static let legacyBitcoin = "XBT"

    /// The table code whose rate answers `code`: BTC for XBT, `code` itself otherwise.
    public static func rateCode(_ code: String) -> String {
        code == legacyBitcoin ? "BTC" : code
    }

    /// The codes `supported-currencies.json` lists: every code of the table plus XBT, sorted
    /// (CoinDesk's list was sorted by code and carried both BTC and XBT).
    public static func supportedCodes(_ table: RateTable) -> [String] {
        if table.rate(legacyBitcoin) != nil { return table.codes }
        var codes = table.codes
        let index = codes.firstIndex { $0 > legacyBitcoin } ?? codes.endIndex
        codes.insert(legacyBitcoin, at: index)
        return codes
    }
}
