// swift-tools-version:6.0
// libFuzzer targets: the HTTP/1.1 request parser, each upstream provider's decoder, the RESP
// parser, the whole app and the shared cache's record decoders.
// Built by scripts/fuzz.sh, never by the root package: a fuzz entry point has no `main`,
// which a normal executable build requires.
//
// The product sources are reached through symlinks that scripts/fuzz.sh regenerates on
// every run (generated, ignored by git), so new product files are picked up:
//   Sources/ParserFuzz/Linked/   the parser's files from ../Sources/HTTPServer (compiled into
//                                the parser target itself, as before)
//   Sources/RESPFuzz/Linked/     the pure RESP files from ../Sources/Redis (RESP*.swift)
//   Sources/SharedValuesFuzz/Linked/  the shared-value checks from ../Sources/TestSupport
//   Sources/Linked/<Module>/     every file of ../Sources/{Base,CCurl,CEpoll,CZlib,COpenSSL,CBuildInfo,HTTPClient,
//                                HTTPServer,Upstream,Cache,Gzip,Rates,Books,Redis,SharedSteward,Almanac},
//                                rebuilt here as the same modules with the same dependencies
// (SwiftPM refuses a target path that is a symlink to a directory outside the package, hence
// one symlink per file.) The only non-toolchain dependencies are system libraries (libcurl,
// zlib, OpenSSL), exactly as in the root package; no Swift package dependencies.
// The `app` target (AppFuzz) drives the whole app: it needs HTTPServer and Almanac as well.
import PackageDescription

let linked = "Sources/Linked/"

let package = Package(
    name: "AlmanacFuzz",
    targets: [
        // The product modules the decoders live in (same names and graph as ../Package.swift).
        .systemLibrary(name: "CCurl", path: linked + "CCurl", pkgConfig: "libcurl",
                       providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CZlib", path: linked + "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "Base", path: linked + "Base"),
        .target(name: "HTTPClient", dependencies: ["Base", "CCurl"], path: linked + "HTTPClient"),
        .target(name: "Upstream", dependencies: ["Base", "HTTPClient", "Cache"], path: linked + "Upstream"),
        .target(name: "Cache", dependencies: ["Base"], path: linked + "Cache"),
        .target(name: "Gzip", dependencies: ["CZlib"], path: linked + "Gzip"),
        .target(name: "Rates", dependencies: ["Base", "HTTPClient", "Upstream", "Cache"], path: linked + "Rates"),
        .target(name: "Books", dependencies: ["Base", "HTTPClient", "Upstream", "Cache"], path: linked + "Books"),
        .systemLibrary(name: "CEpoll", path: linked + "CEpoll"),
        .target(name: "HTTPServer", dependencies: ["Base", .target(name: "CEpoll", condition: .when(platforms: [.linux]))],
                path: linked + "HTTPServer"),
        // No commit string here: the fuzz build's binary says "unknown", which nothing checks.
        .target(name: "CBuildInfo", path: linked + "CBuildInfo", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        .systemLibrary(name: "COpenSSL", path: linked + "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .target(name: "Redis", dependencies: ["Base", "HTTPServer", "Cache", "COpenSSL"], path: linked + "Redis"),
        .target(name: "SharedSteward", dependencies: ["Redis", "Upstream"], path: linked + "SharedSteward"),
        .target(name: "Almanac", dependencies: ["Base", "HTTPServer", "HTTPClient", "Upstream", "Cache", "Rates", "Books", "CBuildInfo", "Gzip", "Redis", "SharedSteward"],
                path: linked + "Almanac", resources: [.embedInCode("OpenAPI/openapi.json")]),

        // Invariant checks shared by the decoder targets.
        .target(name: "FuzzSupport", dependencies: ["Base", "HTTPClient", "Rates", "Books"], path: "Sources/FuzzSupport"),

        // One executable per target; scripts/fuzz.sh names them parser, coinbase, ….
        // How the parser and RESP targets re-feed one input in other chunkings.
        .target(name: "FuzzChunkings", path: "Sources/FuzzChunkings"),
        .executableTarget(name: "ParserFuzz", dependencies: ["FuzzChunkings"], path: "Sources/ParserFuzz"),
        .executableTarget(name: "RESPFuzz", dependencies: ["FuzzChunkings", "Base"], path: "Sources/RESPFuzz"),
        .executableTarget(name: "CoinbaseFuzz", dependencies: ["FuzzSupport", "HTTPClient", "Rates"], path: "Sources/CoinbaseFuzz"),
        .executableTarget(name: "CoinGeckoFuzz", dependencies: ["FuzzSupport", "HTTPClient", "Rates"], path: "Sources/CoinGeckoFuzz"),
        .executableTarget(name: "CoinDeskFuzz", dependencies: ["FuzzSupport", "HTTPClient", "Rates"], path: "Sources/CoinDeskFuzz"),
        .executableTarget(name: "GoogleBooksFuzz", dependencies: ["FuzzSupport", "HTTPClient", "Books"], path: "Sources/GoogleBooksFuzz"),
        .executableTarget(name: "OpenLibraryFuzz", dependencies: ["FuzzSupport", "HTTPClient", "Books"], path: "Sources/OpenLibraryFuzz"),
        // The shared cache's record decoders, envelope checks and steward status reading; SharedCacheValueProbe and SplitMix64 are linked
        // from ../Sources/TestSupport into Sources/SharedValuesFuzz/Linked/.
        .executableTarget(name: "SharedValuesFuzz", dependencies: ["FuzzSupport", "Cache", "Rates", "Books", "SharedSteward", "Upstream"],
                          path: "Sources/SharedValuesFuzz"),
        .executableTarget(name: "AppFuzz", dependencies: ["Base", "FuzzSupport", "Almanac", "HTTPServer", "HTTPClient", "Rates"], path: "Sources/AppFuzz"),
    ],
    swiftLanguageModes: [.v6]
)
