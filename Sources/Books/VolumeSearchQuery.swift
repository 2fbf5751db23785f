import Base

/// A Google Books search as almanac understands it: Google's query language (words,
/// `"phrases"`, `intitle:`, `inauthor:`, `inpublisher:`, `subject:`, `isbn:`, `lccn:`, `oclc:`)
/// plus paging and filters, checked and put in one normal form.
///
/// The normal form is the cache key (docs/books.md "Search"): operator names lower-cased,
/// whitespace collapsed, every parameter written with its default filled in and in sorted
/// order, so `q=INTITLE:Hobbit` and `q=intitle:Hobbit&maxResults=10` share one entry. A
/// client's `key`, `fields` and `prettyPrint` never reach it: almanac answers the whole volume
/// and only its own key goes upstream.
public struct VolumeSearchQuery: Sendable, Hashable {
    /// One term of `q`, as Google reads it.
    public struct Term: Sendable, Hashable {
        /// Lower-cased operator (`intitle`, …), or nil for a plain word or phrase.
        public var keyword: Keyword?
        public var text: String
        /// Written in double quotes (a phrase).
        public var quoted: Bool

        /// As written into the normal form and into Google's `q`: `intitle:"the hobbit"`.
        public var normalized: String {
            let value = quoted ? "\"" + text + "\"" : text
            return keyword.map { $0.rawValue + ":" + value } ?? value
        }
    }

    /// The operators Google documents for `q`.
    public enum Keyword: String, Sendable, Hashable, CaseIterable {
        case intitle, inauthor, inpublisher, subject, isbn, lccn, oclc
    }

    public enum OrderBy: String, Sendable, CaseIterable { case relevance, newest }
    public enum PrintType: String, Sendable, CaseIterable { case all, books, magazines }
    public enum Projection: String, Sendable, CaseIterable { case full, lite }

    public var terms: [Term]
    public var startIndex: Int
    public var maxResults: Int
    public var orderBy: OrderBy
    public var printType: PrintType
    /// A language code (`en`, `pt-BR`), lower-cased; nil: any.
    public var langRestrict: String?
    public var projection: Projection

    /// Google answers at most 40 items a page.
    public static let maxResultsLimit = 40
    public static let defaultMaxResults = 10
    /// Longest `q` accepted, in bytes: longer text is no real search and would make a long key.
    public static let maxQueryBytes = 512
    /// Furthest page start accepted (Google stops well before).
    public static let maxStartIndex = 10_000

    /// Why a search was refused, in words the client can act on.
    public struct Invalid: Error, Sendable, Equatable {
        public var message: String
        public init(message: String) { self.message = message }
    }

    /// Parses the client's parameters. `parameter` returns a query parameter's value, nil when
    /// absent.
    public init(parameter: (String) -> String?) throws(Invalid) {
        guard let q = parameter("q"), !q.utf8.allSatisfy(Self.isSpace) else {
            throw Invalid(message: "Query parameter q is required, e.g. q=intitle:hobbit or q=isbn:9780261102217.")
        }
        self.terms = try Self.parseTerms(q)
        self.startIndex = try Self.integer(parameter("startIndex"), name: "startIndex", default: 0,
                                           range: 0...Self.maxStartIndex)
        self.maxResults = try Self.integer(parameter("maxResults"), name: "maxResults", default: Self.defaultMaxResults,
                                           range: 1...Self.maxResultsLimit)
        self.orderBy = try Self.choice(parameter("orderBy"), name: "orderBy", undefined: "order_by_undefined", default: .relevance)
        self.printType = try Self.choice(parameter("printType"), name: "printType", undefined: "print_type_undefined", default: .all)
        self.projection = try Self.choice(parameter("projection"), name: "projection", undefined: "projection_undefined",
                                          default: .full)
        self.langRestrict = try parameter("langRestrict").flatMap(Self.language)
    }

    /// A search built from parts (the native `/v1/books/search`).
    public init(terms: [Term], startIndex: Int, maxResults: Int) {
        self.terms = terms
        self.startIndex = startIndex
        self.maxResults = maxResults
        self.orderBy = .relevance
        self.printType = .all
        self.langRestrict = nil
        self.projection = .full
    }

    /// `q` in normal form: terms in order, single spaces, operators lower-cased.
    public var normalizedQ: String { terms.map(\.normalized).joined(separator: " ") }

    /// The whole search in normal form, parameters sorted: the cache key.
    public var normalized: String {
        var parts = ["maxResults=\(maxResults)", "orderBy=\(orderBy.rawValue)", "printType=\(printType.rawValue)",
                     "projection=\(projection.rawValue)", "q=\(normalizedQ)", "startIndex=\(startIndex)"]
        if let langRestrict { parts.append("langRestrict=\(langRestrict)") }
        return parts.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }.joined(separator: "&")
    }

    /// The same search one page later or earlier, or with other paging.
    public func paged(startIndex: Int, maxResults: Int) -> VolumeSearchQuery {
        var copy = self
        copy.startIndex = startIndex
        copy.maxResults = maxResults
        return copy
    }

    /// The terms with one keyword, in order.
    public func values(of keyword: Keyword?) -> [Term] { terms.filter { $0.keyword == keyword } }

    // MARK: - Parsing

    /// Splits `q` into terms: whitespace separates, `"…"` keeps a phrase together (also after an
    /// operator), an operator Google does not document stays a plain word. Bytes, not
    /// `Character`s: a combining mark after a quote must not merge with it.
    public static func parseTerms(_ q: String) throws(Invalid) -> [Term] {
        let bytes = Array(q.utf8)
        guard bytes.count <= maxQueryBytes else {
            throw Invalid(message: "Query parameter q is \(bytes.count) bytes long; at most \(maxQueryBytes) are accepted.")
        }
        guard !bytes.contains(where: { $0 < 0x20 && !isSpace($0) || $0 == 0x7F }) else {
            throw Invalid(message: "Query parameter q contains a control character.")
        }
        var terms: [Term] = []
        var i = 0
        while i < bytes.count {
            if isSpace(bytes[i]) { i += 1; continue }
            // An operator: letters then a colon.
            var keyword: Keyword?
            var j = i
            while j < bytes.count, ASCIICase.lowercased(bytes[j]) >= 0x61, ASCIICase.lowercased(bytes[j]) <= 0x7A { j += 1 }
            if j < bytes.count, j > i, bytes[j] == UInt8(ascii: ":"),
               let known = Keyword(rawValue: ASCIICase.lowercased(bytes[i..<j])) {
                keyword = known
                i = j + 1
            }
            var text: [UInt8] = []
            var quoted = false
            if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
                quoted = true
                i += 1
                while i < bytes.count, bytes[i] != UInt8(ascii: "\"") { text.append(bytes[i]); i += 1 }
                guard i < bytes.count else { throw Invalid(message: "Query parameter q has a phrase without its closing \".") }
                i += 1
                // Inner whitespace collapsed, like the rest of q.
                text = Array(String(decoding: text, as: UTF8.self).utf8.split(whereSeparator: isSpace)
                    .map { Array($0) }.joined(separator: [0x20]))
            } else {
                while i < bytes.count, !isSpace(bytes[i]) { text.append(bytes[i]); i += 1 }
            }
            guard !text.isEmpty else {
                if let keyword { throw Invalid(message: "Query parameter q has \(keyword.rawValue): with nothing after it.") }
                continue
            }
            terms.append(Term(keyword: keyword, text: String(decoding: text, as: UTF8.self), quoted: quoted))
        }
        guard !terms.isEmpty else { throw Invalid(message: "Query parameter q has no search terms.") }
        return terms
    }

    public static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// `text` as a whole number in `range`, `value` when absent, else why not.
    public static func integer(_ text: String?, name: String, default value: Int, range: ClosedRange<Int>) throws(Invalid) -> Int {
        guard let text else { return value }
        guard let digits = wholeNumber(text), range.contains(digits) else {
            throw Invalid(message: "Query parameter \(name) must be a whole number from \(range.lowerBound) to "
                + "\(range.upperBound), got \(BooksProblem.quoted(text)).")
        }
        return digits
    }

    /// ASCII digits only (at most 9, so no overflow), or nil.
    static func wholeNumber(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 9, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// One of `Choice`'s values in any ASCII case (Google's discovery document spells them
    /// `NEWEST`, its older one `newest`), or `value` when absent or `undefined` (the discovery
    /// document's `PRINT_TYPE_UNDEFINED`, …).
    static func choice<Choice: RawRepresentable & CaseIterable>(_ text: String?, name: String, undefined: String,
                                                                 default value: Choice) throws(Invalid) -> Choice
    where Choice.RawValue == String {
        guard let text else { return value }
        let lowered = ASCIICase.lowercased(text.utf8)
        if lowered.utf8.elementsEqual(undefined.utf8) { return value }
        guard let found = Choice.allCases.first(where: { $0.rawValue.utf8.elementsEqual(lowered.utf8) }) else {
            throw Invalid(message: "Query parameter \(name) must be one of "
                + Choice.allCases.map(\.rawValue).joined(separator: ", ") + ", got \(BooksProblem.quoted(text)).")
        }
        return found
    }

    /// `en`, `pt-BR`: 2–3 letters, optionally `-` and 2–8 letters or digits; lower-cased.
    static func language(_ text: String) throws(Invalid) -> String? {
        if text.isEmpty { return nil }
        let bytes = Array(text.utf8)
        let parts = bytes.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        let isLetter: (UInt8) -> Bool = { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
        let isAlnum: (UInt8) -> Bool = { isLetter($0) || (0x30...0x39).contains($0) }
        guard parts.count <= 2, (2...3).contains(parts[0].count), parts[0].allSatisfy(isLetter),
              parts.count == 1 || ((2...8).contains(parts[1].count) && parts[1].allSatisfy(isAlnum)) else {
            throw Invalid(message: "Query parameter langRestrict must be a language code such as en or pt-BR, got \(BooksProblem.quoted(text)).")
        }
        return ASCIICase.lowercased(bytes)
    }
}
