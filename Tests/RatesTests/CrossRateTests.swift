import Foundation
import Testing
@testable import Rates

@Suite struct CrossRateTests {
    let table = Fixtures.table(["USD": "91234.56", "EUR": "84000.12", "GBP": "72000.5", "JPY": "13700000"])

    @Test func btcBaseIsTheUpstreamNumberUntouched() {
        #expect(CrossRate.served(table, base: "BTC", code: "USD") == Decimal("91234.56"))
        #expect(CrossRate.served(table, base: "BTC", code: "BTC") == 1)
        #expect(CrossRate.served(table, base: "EUR", code: "EUR") == 1)
    }

    @Test func crossRatesAreQuotientsRoundedTo15Digits() {
        // 91234.56 / 84000.12 = 1.086124162679767600331999525714963…
        #expect(CrossRate.served(table, base: "EUR", code: "USD")?.description == "1.08612416267977")
        // 1 / 84000.12 = 0.0000119047448979…
        #expect(CrossRate.served(table, base: "EUR", code: "BTC")?.description == "0.0000119047448979835")
        // 13700000 / 72000.5 = 190.276456413497128…
        #expect(CrossRate.served(table, base: "GBP", code: "JPY")?.description == "190.276456413497")
        #expect(CrossRate.served(table, base: "XXX", code: "USD") == nil)
    }

    @Test func conversionRoundsOnceFromTheExactRate() {
        #expect(CrossRate.convert(table, amount: Decimal("2.5"), from: "BTC", to: "USD")?.description == "228086.4")
        #expect(CrossRate.convert(table, amount: Decimal("100"), from: "EUR", to: "USD")?.description == "108.612416267977")
        #expect(CrossRate.convert(table, amount: 0, from: "EUR", to: "USD") == 0)
        #expect(CrossRate.convert(table, amount: Decimal("91234.56"), from: "USD", to: "BTC") == 1)
    }

    @Test func inputValidation() throws {
        #expect(try RatesInput.code(nil, parameter: "base", default: "BTC") == "BTC")
        #expect(try RatesInput.code("eur", parameter: "base") == "EUR")
        #expect(throws: RatesInputError.self) { try RatesInput.code("EURO", parameter: "base") }
        do {
            _ = try RatesInput.code("E1R", parameter: "base")
        } catch {
            #expect(error.kind == .malformed)
            #expect(error.slug == "invalid-currency-code")
            #expect(error.detail == "Invalid base \"E1R\": a currency code is three letters, such as USD.")
        }
        do {
            _ = try RatesInput.code(nil, parameter: "from")
        } catch {
            #expect(error.slug == "missing-parameter")
            #expect(error.detail.contains("from"))
        }
    }

    @Test func symbolsAreNormalizedSortedAndDeduplicated() throws {
        #expect(try RatesInput.symbols("usd,GBP, eur,,USD") == ["EUR", "GBP", "USD"])
        #expect(try RatesInput.symbols(nil) == nil)
        #expect(try RatesInput.symbols(",") == nil)
        #expect(throws: RatesInputError.self) { try RatesInput.symbols("USD,DOLLARS") }
    }

    @Test func amounts() throws {
        #expect(try RatesInput.amount(nil) == 1)
        #expect(try RatesInput.amount("12.50").description == "12.5")
        #expect(try RatesInput.amount("0") == 0)
        #expect(try RatesInput.amount("000123.4500").description == "123.45")
        for bad in ["", "-1", "1e3", "1,000", "NaN", "inf", "1.2.3", ".5", "5.", "+1", " 1", String(repeating: "9", count: 33)] {
            #expect(throws: RatesInputError.self, "\(bad)") { try RatesInput.amount(bad) }
        }
        do {
            _ = try RatesInput.amount("-5")
        } catch {
            #expect(error.slug == "invalid-amount")
            #expect(error.detail == "amount \"-5\" is negative: use zero or a positive number.")
        }
    }
}
