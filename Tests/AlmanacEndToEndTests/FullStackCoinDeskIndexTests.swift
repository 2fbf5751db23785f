import Foundation
import HTTPClientTestSupport
import Testing
@testable import Almanac

extension FullStackTests {
    /// CoinDesk documented `index=[USD/CNY]` on historical/close.json; the `coindesk` PyPI
    /// client sends `index=CNY`, which almanac answers as `currency=CNY`.
    @Suite struct CoinDeskIndex {
        @Test func indexCNYIsCurrencyCNY() async throws {
            try await FullStack.run { s in
                let byIndex = try await s.get("/v1/bpi/historical/close.json?start=2024-01-01&end=2024-01-05&index=CNY")
                #expect(byIndex.status == 200, "\(byIndex.text)")
                let byCurrency = try await s.get("/v1/bpi/historical/close.json?start=2024-01-01&end=2024-01-05&currency=CNY")
                #expect(byCurrency.status == 200)
                #expect(byIndex.json?["bpi"] == byCurrency.json?["bpi"])
                let usd = try await s.get("/v1/bpi/historical/close.json?start=2024-01-01&end=2024-01-05")
                #expect(byIndex.json?["bpi"] != usd.json?["bpi"], "CNY closes, not USD")
                let other = try await s.get("/v1/bpi/historical/close.json?index=EUR")
                #expect(other.expectProblem(400).contains("index"))
            }
        }
    }
}
