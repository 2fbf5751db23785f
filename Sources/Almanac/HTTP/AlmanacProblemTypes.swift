import HTTP1

extension ProblemTypes {
    /// docs/problems.md where the project is published: one section per slug almanac sends.
    static let almanacDocumentation = "https://github.com/almanac-dev/almanac/blob/main/docs/problems.md"

    /// almanac's problem types: a problem's `type` is its slug's section of docs/problems.md.
    /// Given to the router and the CORS policy when the app builds them, and used by every
    /// problem the app makes (`Problem.init(status:slug:title:detail:)`).
    public static let almanac = ProblemTypes(base: almanacDocumentation + "#")
}

extension Problem {
    /// An almanac problem of a documented type: `type` links to the slug's section of
    /// docs/problems.md.
    init(status: HTTPStatus, slug: String, title: String? = nil, detail: String) {
        self.init(status: status, slug: slug, title: title, detail: detail, types: .almanac)
    }
}
