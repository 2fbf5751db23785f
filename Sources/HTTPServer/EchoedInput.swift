/// Client input quoted back in a problem detail, shortened so a 4 KiB path or query does not
/// come back whole.
public enum EchoedInput {
    /// At most `limit` Unicode scalars of `input`, then `…` when something was cut. Counted in
    /// scalars, never `Character`s: a digit followed by 4,000 combining marks is one grapheme
    /// cluster, so a `Character` count would echo all of it.
    public static func clipped(_ input: String, limit: Int = 40) -> String {
        let scalars = input.unicodeScalars
        guard scalars.count > limit else { return input }
        return String(String.UnicodeScalarView(scalars.prefix(limit))) + "…"
    }
}
