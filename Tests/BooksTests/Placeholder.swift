import Testing

@Test func placeholder_BooksTests() {
    #expect(Bool(true))
}
