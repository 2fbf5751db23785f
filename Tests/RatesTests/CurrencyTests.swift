import Testing
@testable import Rates

@Suite struct CurrencyTests {
    @Test func isoTableIsSortedUniqueAndWellFormed() {
        let codes = ISO4217.active.map(\.code)
        #expect(codes == codes.sorted())
        #expect(Set(codes).count == codes.count)
        #expect(codes.count >= 150)
        for c in ISO4217.active {
            #expect(CurrencyCode.normalize(c.code) == c.code)
            #expect(!c.name.isEmpty)
            #expect(c.symbol?.isEmpty == false)
        }
        for retired in ["HRK", "SLL", "CUC", "ZWL", "VEF", "XAU", "XDR"] {
            #expect(!codes.contains(retired), "\(retired)")
        }
    }

    @Test func directoryFallsBackToUpstreamThenCode() {
        let table = RateTable(rates: ["USD": 1, "ETH": 2, "XBT": 3], updated: 0, source: "coindesk",
                              upstreamCurrencies: ["XBT": Currency(code: "XBT", name: "Bitcoin (legacy)", symbol: "₿"),
                                                   "USD": Currency(code: "USD", name: "Dollar", symbol: "US$")])
        #expect(CurrencyDirectory.currency("USD", in: table) == Currency(code: "USD", name: "United States Dollar", symbol: "$"))
        #expect(CurrencyDirectory.currency("BTC", in: table) == Currency(code: "BTC", name: "Bitcoin", symbol: "₿"))
        #expect(CurrencyDirectory.currency("XBT", in: table).name == "Bitcoin (legacy)")
        #expect(CurrencyDirectory.currency("ETH", in: table) == Currency(code: "ETH", name: "ETH", symbol: nil))
    }

    @Test func htmlEntitiesDecode() {
        #expect(HTMLEntities.decode("&#36;") == "$")
        #expect(HTMLEntities.decode("&pound;") == "£")
        #expect(HTMLEntities.decode("&euro;") == "€")
        #expect(HTMLEntities.decode("&#x20AC;") == "€")
        #expect(HTMLEntities.decode("&#X20ac;") == "€")
        #expect(HTMLEntities.decode("R&#36;") == "R$")
        #expect(HTMLEntities.decode("&yen;&amp;&lt;") == "¥&<")
        // unknown, malformed or out-of-range references stay literal
        #expect(HTMLEntities.decode("&bogus;") == "&bogus;")
        #expect(HTMLEntities.decode("a & b") == "a & b")
        #expect(HTMLEntities.decode("&#xFFFFFFFF;") == "&#xFFFFFFFF;")
        #expect(HTMLEntities.decode("&#0;") == "&#0;")
        #expect(HTMLEntities.decode("CHF") == "CHF")
    }

    @Test func htmlEntitiesEncodeLikeCoinDesk() {
        #expect(HTMLEntities.encode("$") == "&#36;")
        #expect(HTMLEntities.encode("£") == "&pound;")
        #expect(HTMLEntities.encode("€") == "&euro;")
        #expect(HTMLEntities.encode("¥") == "&yen;")
        #expect(HTMLEntities.encode("R$") == "R&#36;")
        #expect(HTMLEntities.encode("CHF") == "CHF")
        #expect(HTMLEntities.encode("zł") == "z&#322;")
        for symbol in ISO4217.active.compactMap(\.symbol) {
            #expect(HTMLEntities.decode(HTMLEntities.encode(symbol)) == symbol)
        }
    }
}
