import Base

/// The OpenAPI 3.1 description of every public endpoint (docs/tour.md, docs/rates.md,
/// docs/books.md), served at `GET /openapi.json`. A test compares its paths and methods with the
/// router's table, so the document cannot drift from what the server really answers.
///
/// The document is `openapi.json` beside this file, a JSON file that editors and OpenAPI tools
/// read as it is; the build embeds its bytes. It names this build's version and project
/// address as the strings `"{{version}}"` and `"{{projectURL}}"`, filled in once here.
public enum OpenAPIDocument {
    /// Rendered once; every request shares these bytes.
    public static let bytes: [UInt8] = Array(json.utf8)

    public static let json: String = String(decoding: PackageResources.openapi_json, as: UTF8.self)
        .replacing(#""{{version}}""#, with: JSONText.quoted(AlmanacVersion.string))
        .replacing(#""{{projectURL}}""#, with: JSONText.quoted(AlmanacVersion.projectURL))
}
