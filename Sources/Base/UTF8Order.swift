/// Ascending order of UTF-8 bytes: a strict total order on strings, for anything sorted to
/// make bytes (a validator's digest, a record for the shared cache).
///
/// `String`'s `<` is the wrong tool there: it compares canonically equivalent spellings as
/// equal, and beside some of them it is not even consistent (U+212A KELVIN SIGN is neither
/// before nor after `KBR` the way it is with `K`), so sorting the same keys inserted in
/// another order, as another process's dictionary holds them, can give another order. For
/// ASCII, byte order and `<` agree, so the order of currency codes is unchanged.
extension String {
    @inlinable
    public func utf8Precedes(_ other: String) -> Bool {
        utf8.lexicographicallyPrecedes(other.utf8)
    }
}

extension Dictionary where Key == String {
    /// The entries in ascending UTF-8 byte order of their keys.
    @inlinable
    public func sortedByUTF8Key() -> [(key: String, value: Value)] {
        sorted { $0.key.utf8Precedes($1.key) }
    }
}
