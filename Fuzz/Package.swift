// swift-tools-version:6.0
// libFuzzer target for the HTTP/1.1 request parser. Built by scripts/fuzz.sh, never by the
// root package: a fuzz entry point has no `main`, which a normal executable build requires.
// scripts/fuzz.sh links the parser's sources from ../Sources/HTTPServer into
// Sources/ParserFuzz/Linked (generated, ignored by git) so new parser files are picked up.
import PackageDescription

let package = Package(
    name: "ParserFuzz",
    targets: [
        .executableTarget(name: "ParserFuzz", path: "Sources/ParserFuzz"),
    ],
    swiftLanguageModes: [.v6]
)
