import HTTP1
import Base

/// Client input quoted back in a problem detail, shortened so a 4 KiB path or query does not
/// come back whole (`EchoedText`, shared with the domain modules).
public enum EchoedInput {
    /// At most `limit` Unicode scalars of `input`, then `…` when something was cut.
    public static func clipped(_ input: String, limit: Int = 40) -> String {
        EchoedText.clipped(input, limit: limit)
    }
}
