// swift-tools-version:6.1
// An app's database layer on Ripple, as GRDB 7 apps write theirs: a migrator, a schema,
// a Codable record, and an @Observable model that observes the players. It depends on
// Ripple by path: `swift test` here builds Ripple from this checkout.
import PackageDescription

let package = Package(
    name: "Players",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "Players", targets: ["Players"]),
    ],
    dependencies: [
        .package(path: "../Ripple"),
    ],
    targets: [
        .target(name: "Players", dependencies: [.product(name: "Ripple", package: "Ripple")]),
        .testTarget(name: "PlayersTests", dependencies: ["Players"]),
    ]
)
