import HTTPClient
import Testing

@Suite struct BaseURLTests {
    @Test func trailingSlashesGoAndNothingElseChanges() {
        #expect(BaseURL.trimmed("https://mirror.example/") == "https://mirror.example")
        #expect(BaseURL.trimmed("https://mirror.example///") == "https://mirror.example")
        #expect(BaseURL.trimmed("https://mirror.example") == "https://mirror.example")
        #expect(BaseURL.trimmed("http://127.0.0.1:8080/prefix/") == "http://127.0.0.1:8080/prefix")
        #expect(BaseURL.trimmed("https://a.example/b?c=/") == "https://a.example/b?c=")
        #expect(BaseURL.trimmed("") == "")
        #expect(BaseURL.trimmed("/") == "")
    }
}
