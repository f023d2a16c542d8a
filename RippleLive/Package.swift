// swift-tools-version:6.1
// Live queries over HTTP: a Hummingbird 2 server pushes fresh results of Ripple observations
// to browsers (Server-Sent Events and WebSocket). A package of its own so that an app that uses only
// Ripple resolves no server dependency. `Ripple` is a symlink to the repository root, so
// that the package identity is `Ripple`.
import PackageDescription

let package = Package(
    name: "RippleLive",
    // Hummingbird 2's API is available from macOS 14 and iOS 17.
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "RippleLive", targets: ["RippleLive"]),
    ],
    dependencies: [
        .package(path: "Ripple"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        // Already dependencies of Hummingbird: its locks and header names, and the tests' own
        // small SSE client and quiet logger.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        // Hummingbird's own: its graceful shutdown ends the live connections.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
    ],
    targets: [
        .target(name: "RippleLive", dependencies: [
            .product(name: "Ripple", package: "Ripple"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .testTarget(name: "RippleLiveTests", dependencies: [
            "RippleLive",
            .product(name: "Ripple", package: "Ripple"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        // The speed of live queries (not a test: CI builds it and never runs it).
        .executableTarget(name: "ripple-live-bench", dependencies: [
            "RippleLive",
            .product(name: "Ripple", package: "Ripple"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
