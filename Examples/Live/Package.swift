// swift-tools-version:6.1
// A live todo list that several browser windows edit together: a Hummingbird server on
// RippleLive serves one static page, which subscribes to the list with `EventSource` and
// writes through POST endpoints. Its tests drive headless Chromium through chromedriver.
// It depends on RippleLive and Ripple by path: it builds them from this checkout.
import PackageDescription

let package = Package(
    name: "Live",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "live-todo", targets: ["live-todo"]),
    ],
    dependencies: [
        // Ripple through the same link as RippleLive sees it: one package identity.
        .package(path: "../../RippleLive/Ripple"),
        .package(path: "../../RippleLive"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
    ],
    targets: [
        .target(
            name: "LiveTodo",
            dependencies: [
                .product(name: "Ripple", package: "Ripple"),
                .product(name: "RippleLive", package: "RippleLive"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            ],
            resources: [.copy("Resources/index.html")]),
        .executableTarget(name: "live-todo", dependencies: ["LiveTodo"]),
        // The tests run the `live-todo` executable (the server, and writes from another
        // process) and read the database file with Ripple.
        .testTarget(name: "LiveTodoTests", dependencies: [
            "LiveTodo",
            "live-todo",
            .product(name: "Ripple", package: "Ripple"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
