import Testing

@Test func placeholder_HTTPServerTests() {
    #expect(Bool(true))
}
