// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Ripple",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "Ripple", targets: ["Ripple"]),
        .executable(name: "ripple-demo", targets: ["ripple-demo"]),
    ],
    targets: [
        // The system SQLite (Debian: libsqlite3-dev). Nothing but this target links C.
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .target(name: "Ripple", dependencies: ["CSQLite"]),
        .executableTarget(name: "ripple-demo", dependencies: ["Ripple"]),
        .testTarget(name: "RippleTests", dependencies: ["Ripple", "CSQLite"]),
    ],
    swiftLanguageModes: [.v6]
)
