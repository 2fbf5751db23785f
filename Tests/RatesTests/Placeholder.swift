import Testing

@Test func placeholder_RatesTests() {
    #expect(Bool(true))
}
