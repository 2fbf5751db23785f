// swift-tools-version:6.0
// libFuzzer targets: the HTTP/1.1 request parser, each upstream provider's decoder, the RESP
// parser, the whole app and the shared cache's record decoders.
// Built by scripts/fuzz.sh, never by the root package: a fuzz entry point has no `main`,
// which a normal executable build requires.
//
// The product's modules come from the root package itself, as a path dependency (`..`) on its
// `AlmanacModules` and `AlmanacTestSupport` libraries: the same modules, the same graph, no copy
// and no file list. The only non-toolchain dependencies are the root package's system libraries
// (libcurl, zlib, OpenSSL); no Swift package dependencies.
import PackageDescription

let modules = Target.Dependency.product(name: "AlmanacModules", package: "almanac")

let package = Package(
    name: "AlmanacFuzz",
    dependencies: [.package(name: "almanac", path: "..")],
    targets: [
        // Invariant checks shared by the decoder targets.
        .target(name: "FuzzSupport", dependencies: [modules]),
        // How the parser and RESP targets re-feed one input in other chunkings.
        .target(name: "FuzzChunkings"),

        // One executable per target; scripts/fuzz.sh names them parser, coinbase, ….
        .executableTarget(name: "ParserFuzz", dependencies: ["FuzzChunkings", modules]),
        .executableTarget(name: "RESPFuzz", dependencies: ["FuzzChunkings", modules]),
        .executableTarget(name: "CoinbaseFuzz", dependencies: ["FuzzSupport", modules]),
        .executableTarget(name: "CoinGeckoFuzz", dependencies: ["FuzzSupport", modules]),
        .executableTarget(name: "CoinDeskFuzz", dependencies: ["FuzzSupport", modules]),
        .executableTarget(name: "GoogleBooksFuzz", dependencies: ["FuzzSupport", modules]),
        .executableTarget(name: "OpenLibraryFuzz", dependencies: ["FuzzSupport", modules]),
        // The shared cache's record decoders, envelope checks and steward status reading, with the
        // unit tests' value probe (TestSupport).
        .executableTarget(name: "SharedValuesFuzz",
                          dependencies: ["FuzzSupport", modules, .product(name: "AlmanacTestSupport", package: "almanac")]),
        .executableTarget(name: "AppFuzz", dependencies: ["FuzzSupport", modules]),
    ],
    swiftLanguageModes: [.v6]
)
