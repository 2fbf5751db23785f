import Testing

@Test func placeholder_CacheTests() {
    #expect(Bool(true))
}
