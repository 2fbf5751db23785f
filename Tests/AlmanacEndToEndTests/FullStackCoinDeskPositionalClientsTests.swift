import Foundation
import HTTP1
import Rates
import TestSupport
import Testing
@testable import Almanac

extension FullStackTests {
    /// What the coindeskr R package's `get_current_price(currency, only_price = TRUE)` does,
    /// step by step, against the real server: check the code is in `supported-currencies.json`
    /// (`currency %in% currency_list$currency`), fetch `currentprice/{CODE}.json`, take the
    /// second field of the first `bpi` entry for USD and of the second entry otherwise
    /// (`parsed$bpi[[2]][2]`: jsonlite keeps member order), drop the commas and read a number
    /// (`as.numeric(gsub(',', '', …))`). With a `symbol` as second field it would read `&yen;`
    /// and return NA.
    @Suite struct CoinDeskPositionalClients {
        static func coindeskrCurrentPrice(_ s: FullStack, currency: String) async throws -> Double? {
            let list = try OrderedJSON(try await s.get("/v1/bpi/supported-currencies.json").body)
            guard case let .array(entries) = list, entries.contains(where: { $0["currency"]?.text == currency }) else {
                Issue.record("\(currency) is not in supported-currencies.json")
                return nil
            }
            let answer = try await s.get("/v1/bpi/currentprice/\(currency).json")
            #expect(answer.status == 200)
            let parsed = try OrderedJSON(answer.body)
            let entry = parsed["bpi"]?[position: currency == "USD" ? 0 : 1]
            guard let text = entry?[position: 1]?.text else { return nil }
            return Double(text.replacingOccurrences(of: ",", with: ""))
        }

        @Test func coindeskrReadsTheRateByPosition() async throws {
            try await FullStack.run { s in
                let expected: [(String, Double)] = [("USD", 91234.56), ("JPY", 13_700_000), ("EUR", 84000.12), ("XBT", 1), ("BTC", 1)]
                for (currency, rate) in expected {
                    let read = try await Self.coindeskrCurrentPrice(s, currency: currency)
                    #expect(read == rate, "\(currency)")
                }
            }
        }
    }
}
