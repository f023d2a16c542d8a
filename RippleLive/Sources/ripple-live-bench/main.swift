import Foundation

// Live queries over HTTP, measured on loopback, with the clients in other processes.
//
//   ripple-live-bench                  the whole benchmark (about six minutes)
//   ripple-live-bench --quick          2 rounds, 2,000 idle subscribers
//   ripple-live-bench --live-server    the latency rounds on `.liveHTTP1(hub)`
//   ripple-live-bench client --port P --connections N [--bulky | --throttled]   a client process
//   ripple-live-bench serve [--bare | --live-server]   a server process (the idle-memory rounds)

let arguments = Array(CommandLine.arguments.dropFirst())

/// The integer after `name` in `arguments`.
func option(_ name: String, in arguments: [String]) -> Int? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return Int(arguments[index + 1])
}

do {
    switch arguments.first {
    case "client":
        try await ClientMode.run(
            port: option("--port", in: arguments) ?? 0, connections: option("--connections", in: arguments) ?? 1,
            bulky: arguments.contains("--bulky"), throttled: arguments.contains("--throttled"))
    case "serve":
        try await ServeMode.run(bare: arguments.contains("--bare"), liveServer: arguments.contains("--live-server"))
    default:
        var driver = Driver()
        if arguments.contains("--quick") {
            driver.rounds = 2
            driver.idleSubscribers = 2000
            driver.idleRounds = 1
        }
        driver.rounds = option("--rounds", in: arguments) ?? driver.rounds
        driver.fanOut = option("--subscribers", in: arguments) ?? driver.fanOut
        driver.idleSubscribers = option("--idle", in: arguments) ?? driver.idleSubscribers
        driver.idleRounds = option("--idle-rounds", in: arguments) ?? driver.idleRounds
        driver.liveServer = arguments.contains("--live-server")
        try await driver.run()
    }
} catch {
    log("ripple-live-bench: \(error)")
    exit(1)
}
