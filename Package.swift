// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Ripple",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "Ripple", targets: ["Ripple"]),
        // Combine publishers: Apple's Combine on Apple platforms, OpenCombine elsewhere.
        .library(name: "RippleCombine", targets: ["RippleCombine"]),
        .executable(name: "ripple-demo", targets: ["ripple-demo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
    ],
    targets: [
        // The system SQLite (Debian: libsqlite3-dev).
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        // What Swift cannot express: thread-local variables (the broker notifying observers,
        // and the chain of database accesses a thread runs, which catches deadlocks).
        .target(name: "CRippleSupport"),
        .target(name: "Ripple", dependencies: ["CSQLite", "CRippleSupport"]),
        .target(name: "RippleCombine", dependencies: [
            "Ripple",
            .product(name: "OpenCombineShim", package: "OpenCombine"),
        ]),
        .executableTarget(name: "ripple-demo", dependencies: ["Ripple"]),
        // The ground-truth oracle of observation: a fixed-seed run is part of the tests,
        // and `ripple-oracle --seconds N` runs fresh seeds for as long as asked.
        .target(name: "RippleOracle", dependencies: ["Ripple", "CSQLite"]),
        .executableTarget(name: "ripple-oracle", dependencies: ["RippleOracle"]),
        // The libFuzzer target (Scripts/fuzz); built plainly, it replays input files.
        .target(name: "CFuzzSupport"),
        .executableTarget(name: "ripple-fuzz", dependencies: ["RippleOracle", "CFuzzSupport"]),
        // The second process of the tests of other processes' commits.
        .executableTarget(name: "ripple-external-writer", dependencies: ["Ripple", "CSQLite"]),
        .testTarget(name: "RippleTests", dependencies: ["Ripple", "CSQLite", "RippleOracle", "ripple-external-writer"]),
        .testTarget(name: "RippleCombineTests", dependencies: ["RippleCombine", "Ripple"]),
        // GRDB's spellings of the public API, compiled in both language modes (one source
        // file, linked from the Swift 5 target).
        .testTarget(name: "GRDBSpellingSwift6Tests", dependencies: ["Ripple"]),
        .testTarget(name: "GRDBSpellingSwift5Tests", dependencies: ["Ripple"], swiftSettings: [.swiftLanguageMode(.v5)]),
    ],
    swiftLanguageModes: [.v6]
)
