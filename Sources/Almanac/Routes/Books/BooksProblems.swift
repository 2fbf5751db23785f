import Books
import HTTP1
import Web

/// What the books endpoints need of the domain's `BooksProblem`s besides their conformance to
/// `ProblemConvertible`: the bytes `BooksService` caches for a not-found answer, and ISBN
/// parsing that throws the 400 saying why not.
enum BooksProblems {
    /// The problem document's bytes, for the not-found answers `BooksService` caches.
    static let encode: BooksProblem.Encoder = { $0.problem(requestID: "").jsonBytes }

    /// Parses an ISBN from a path segment or query value, or the 400 problem saying why not.
    static func parse(_ input: String) -> Result<ISBN, Problem> {
        BooksProblem.parse(input).mapError { $0.problem(requestID: "") }
    }

    /// The ISBN of path placeholder `name`, from its bytes (a missing one is the empty ISBN).
    /// A well-formed one (every cached hit's) is read with no error value built or copied.
    static func isbn(_ parameters: RouteParameters, _ name: String) throws(BooksProblem) -> ISBN {
        if let isbn = parameters.withBytes(name, { ISBN(wellFormed: $0) }) ?? nil { return isbn }
        return try (parameters.withBytes(name) { BooksProblem.parse($0) } ?? BooksProblem.parse("")).get()
    }
}
