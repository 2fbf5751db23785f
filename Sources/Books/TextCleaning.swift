extension Optional where Wrapped == String {
    /// Upstreams send `""` for unknown facts as often as they omit them; both mean absent.
    var nonEmpty: String? {
        guard let self else { return nil }
        let trimmed = self.trimmingWhitespace()
        return trimmed.isEmpty ? nil : trimmed
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
