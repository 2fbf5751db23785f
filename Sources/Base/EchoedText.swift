/// Client input quoted back in a problem detail, shortened so a 4 KiB path or query does not
/// come back whole: the one clip the HTTP layer (`EchoedInput`) and the domain modules' input
/// errors share.
public enum EchoedText {
    /// At most `limit` Unicode scalars of `input`, then `…` when something was cut. Counted in
    /// scalars, never `Character`s: a digit followed by 4,000 combining marks is one grapheme
    /// cluster, so a `Character` count would echo all of it.
    public static func clipped(_ input: String, limit: Int = 40) -> String {
        let scalars = input.unicodeScalars
        guard scalars.count > limit else { return input }
        return String(String.UnicodeScalarView(scalars.prefix(limit))) + "…"
    }
}
