import Foundation
import Testing
@testable import Rates

@Suite struct DecimalTextTests {
    @Test func parsesExactly() {
        #expect(DecimalText.parse("91234.56")?.description == "91234.56")
        #expect(DecimalText.parse("0.00000000123")?.description == "0.00000000123")
        #expect(DecimalText.parse("29.81234567890123456789")?.description == "29.81234567890123456789")
        #expect(DecimalText.parse("7.2e4")?.description == "72000")
        #expect(DecimalText.parse("-0.5")?.description == "-0.5")
        #expect(DecimalText.parse("007")?.description == "7")
    }

    @Test(arguments: ["", "12abc", " 1", "1 ", "1,000", "NaN", "Infinity", ".5", "5.", "1e", "--1", "+1", "1e400", "0x10"])
    func rejectsWhatIsNotADecimal(_ text: String) {
        #expect(DecimalText.parse(text) == nil)
    }

    @Test func roundsToSignificantDigits() {
        #expect(DecimalText.rounded(Decimal("1.08612416267976760033199952571496326433"), significantDigits: 15).description == "1.08612416267977")
        #expect(DecimalText.rounded(Decimal("0.0000119096812345678901"), significantDigits: 15).description == "0.0000119096812345679")
        #expect(DecimalText.rounded(Decimal("123456789012345678"), significantDigits: 15).description == "123456789012346000")
        #expect(DecimalText.rounded(Decimal("2.5"), significantDigits: 15).description == "2.5")
        #expect(DecimalText.rounded(Decimal("0"), significantDigits: 15) == 0)
        // half away from zero
        #expect(DecimalText.rounded(Decimal("1.00000000000000500"), significantDigits: 15).description == "1.00000000000001")
    }

    @Test func groupsLikeCoinDesk() {
        #expect(DecimalText.grouped(Decimal("91234.56"), decimals: 4) == "91,234.5600")
        #expect(DecimalText.grouped(Decimal("1234567.123456"), decimals: 4) == "1,234,567.1235")
        #expect(DecimalText.grouped(Decimal("999.99995"), decimals: 4) == "1,000.0000")
        #expect(DecimalText.grouped(Decimal("0.5"), decimals: 4) == "0.5000")
        #expect(DecimalText.grouped(Decimal("123"), decimals: 0) == "123")
        #expect(DecimalText.grouped(Decimal("13700000"), decimals: 4) == "13,700,000.0000")
    }

    @Test func currencyCodes() {
        #expect(CurrencyCode.normalize("usd") == "USD")
        #expect(CurrencyCode.normalize("EuR") == "EUR")
        for bad in ["US", "USDT", "U5D", "ÜSD", "", "U D", "usd "] {
            #expect(CurrencyCode.normalize(bad) == nil, "\(bad)")
        }
    }
}
