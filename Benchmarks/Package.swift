// swift-tools-version:6.1
import PackageDescription

// The benchmark suite is its own package, so that Ripple never depends on what it is
// compared with. Each subject lives in its own module: Ripple and GRDB share type names.
let package = Package(
    name: "RippleBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Ripple", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        // The raw C API, for the physical limit: the same work with sqlite3_* calls only.
        .systemLibrary(name: "CSQLiteBench", path: "Sources/CSQLiteBench", pkgConfig: "sqlite3"),
        // The allocator's count of bytes in use (glibc's mallinfo2), for W6m.
        .systemLibrary(name: "CMallocBench", path: "Sources/CMallocBench"),
        .target(name: "BenchCore", dependencies: ["CMallocBench"]),
        .target(name: "RawSubject", dependencies: ["BenchCore", "CSQLiteBench"]),
        .target(name: "RippleSubject", dependencies: ["BenchCore", .product(name: "Ripple", package: "Ripple")]),
        .target(name: "GRDBSubject", dependencies: ["BenchCore", .product(name: "GRDB", package: "GRDB.swift")]),
        .executableTarget(name: "ripple-bench", dependencies: ["BenchCore", "RawSubject", "RippleSubject", "GRDBSubject"]),
    ],
    swiftLanguageModes: [.v6]
)
