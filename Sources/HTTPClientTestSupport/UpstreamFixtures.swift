/// Upstream answers, in their exact upstream formats, that several test targets, the stubs and
/// the fuzz corpora (`Fuzz/corpus/<target>/fixture-*`) all need: one copy each, so a fixture
/// and the seed that restates it cannot drift apart.
public enum UpstreamFixtures {
    /// Google Books' answer to an `isbn:` query it has no volume for: no `items` at all.
    public static let googleNotFound = #"{"kind":"books#volumes","totalItems":0}"#
}
