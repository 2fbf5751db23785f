import Testing

@Test func placeholder_HTTPClientTests() {
    #expect(Bool(true))
}
