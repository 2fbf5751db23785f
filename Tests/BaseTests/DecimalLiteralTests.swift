import Base
import Testing

@Suite struct DecimalLiteralTests {
    @Test(arguments: ["0", "007", "-1", "1.5", "0.0000123", "1e5", "1E-5", "-2.5e+10", "12345678901234567890"])
    func acceptsLiterals(_ text: String) {
        #expect(DecimalLiteral.matches(text.utf8, sign: .minusOnly))
        #expect(DecimalLiteral.matches(text.utf8, sign: .plusOrMinus))
    }

    @Test(arguments: ["", "-", "+", ".5", "5.", "1e", "1e+", " 1", "1 ", "1,000", "NaN", "inf", "12abc", "--1", "1.2.3", "0x10", "１"])
    func refusesEverythingElse(_ text: String) {
        #expect(!DecimalLiteral.matches(text.utf8, sign: .minusOnly))
        #expect(!DecimalLiteral.matches(text.utf8, sign: .plusOrMinus))
    }

    @Test func aLeadingPlusOnlyWhereAllowed() {
        #expect(!DecimalLiteral.matches("+1.5".utf8, sign: .minusOnly))
        #expect(DecimalLiteral.matches("+1.5".utf8, sign: .plusOrMinus))
    }

    @Test func readsSlicesInPlace() {
        let bytes = Array("x-1.25y".utf8)
        #expect(DecimalLiteral.matches(bytes[1..<6], sign: .minusOnly))
        #expect(!DecimalLiteral.matches(bytes[0..<6], sign: .minusOnly))
    }
}
