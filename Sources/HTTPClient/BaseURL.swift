/// Configured upstream base URLs, as every service joins them with its API paths.
///
/// Operators write a base both ways (`https://mirror.example` and `https://mirror.example/`);
/// one shared rule keeps `{base}/v1/…` at exactly one slash for every provider, so a mirror
/// that is strict about `//` behaves the same whichever service calls it.
public enum BaseURL {
    /// `https://mirror.example/` → `https://mirror.example` (all trailing slashes removed).
    public static func trimmed(_ base: String) -> String {
        var base = Substring(base)
        while base.hasSuffix("/") { base = base.dropLast() }
        return String(base)
    }
}
