import Testing

@Test func placeholder_AlmanacTests() {
    #expect(Bool(true))
}
