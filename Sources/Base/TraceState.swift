/// The W3C `tracestate` header: vendor entries a caller wants carried along its trace. almanac
/// adds none of its own; it forwards the caller's, validated, to every upstream request.
///
/// A value breaking the grammar is dropped whole (the spec's choice: a partly understood list
/// could misattribute another vendor's state), never an error to the client.
public enum TraceState {
    /// The spec's maximum number of list-members.
    public static let maxMembers = 32
    /// The combined length the spec asks every hop to be able to pass on; longer lists are cut
    /// down to it by its truncation rule (see `normalize`).
    public static let propagatedLength = 512
    /// Entries longer than this go first when a list must be cut.
    static let largeMemberLength = 128
    /// Input longer than any valid list (32 members of a 256-byte key and value, their
    /// separators and some whitespace) is refused before it is looked at.
    static let maxInputLength = maxMembers * (256 + 1 + 256) + 4 * maxMembers

    /// The list to forward, from the caller's `tracestate` header values (several headers are
    /// one list, joined by commas): members separated by `,` without the optional whitespace,
    /// empty members left out. Nil when there is nothing to forward: no member, more than
    /// `maxMembers`, a key twice, or any member that is not `key=value` by the grammar.
    /// Longer than `propagatedLength`, members over 128 characters are removed, then members
    /// from the end, until the list fits.
    public static func normalize(_ values: [String]) -> String? {
        var members: [Substring.UTF8View] = []
        var keys: [Substring.UTF8View] = []
        var total = 0
        for value in values {
            total += value.utf8.count
            guard total <= maxInputLength else { return nil }
            for raw in value.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                let member = trimmingOWS(raw)
                if member.isEmpty { continue }
                guard members.count < maxMembers, let key = validMemberKey(member) else { return nil }
                guard !keys.contains(where: { $0.elementsEqual(key) }) else { return nil }
                keys.append(key)
                members.append(member)
            }
        }
        guard !members.isEmpty else { return nil }
        members = truncated(members)
        guard !members.isEmpty else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(members.reduce(members.count) { $0 + $1.count })
        for (i, member) in members.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: member)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The spec's truncation: while the joined list is longer than `propagatedLength`, drop
    /// members over `largeMemberLength` characters (from the end), then members from the end.
    static func truncated(_ members: [Substring.UTF8View]) -> [Substring.UTF8View] {
        var members = members
        func length() -> Int { members.reduce(max(0, members.count - 1)) { $0 + $1.count } }
        while length() > propagatedLength, let large = members.lastIndex(where: { $0.count > largeMemberLength }) {
            members.remove(at: large)
        }
        while length() > propagatedLength { members.removeLast() }
        return members
    }

    /// `member` without leading and trailing spaces and tabs (the grammar's OWS).
    static func trimmingOWS(_ member: Substring.UTF8View) -> Substring.UTF8View {
        var member = member
        while let first = member.first, first == 0x20 || first == 0x09 { member.removeFirst() }
        while let last = member.last, last == 0x20 || last == 0x09 { member.removeLast() }
        return member
    }

    /// The key of a `key "=" value` member when both follow the grammar, else nil.
    static func validMemberKey(_ member: Substring.UTF8View) -> Substring.UTF8View? {
        guard let equals = member.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        let key = member[member.startIndex..<equals]
        let value = member[member.index(after: equals)...]
        guard isValidKey(key), isValidValue(value) else { return nil }
        return key
    }

    /// `simple-key = lcalpha 0*255(lcalpha / DIGIT / "_" / "-" / "*" / "/")`, or
    /// `tenant-id "@" system-id` with a tenant of 1–241 such characters (first a letter or
    /// digit) and a system of 1–14 (first a letter).
    static func isValidKey(_ key: Substring.UTF8View) -> Bool {
        guard let at = key.firstIndex(of: UInt8(ascii: "@")) else {
            return key.count <= 256 && isKeyPart(key, firstIsLetter: true)
        }
        let tenant = key[key.startIndex..<at]
        let system = key[key.index(after: at)...]
        return (1...241).contains(tenant.count) && isKeyPart(tenant, firstIsLetter: false)
            && (1...14).contains(system.count) && isKeyPart(system, firstIsLetter: true)
    }

    /// A non-empty run of key characters whose first is `a-z` (or also a digit).
    static func isKeyPart(_ part: Substring.UTF8View, firstIsLetter: Bool) -> Bool {
        guard let first = part.first else { return false }
        let isLetter = first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z")
        let isDigit = first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")
        guard isLetter || (!firstIsLetter && isDigit) else { return false }
        return part.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "/")
        }
    }

    /// `value = 0*255(chr) nblk-chr`: 1–256 printable ASCII characters other than `,` and `=`,
    /// spaces allowed inside but not last (trailing spaces were already trimmed as OWS).
    static func isValidValue(_ value: Substring.UTF8View) -> Bool {
        guard (1...256).contains(value.count), let last = value.last, last != 0x20 else { return false }
        return value.allSatisfy { byte in
            byte >= 0x20 && byte <= 0x7E && byte != UInt8(ascii: ",") && byte != UInt8(ascii: "=")
        }
    }
}
