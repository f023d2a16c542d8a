import Foundation

/// One round of the latency measure: `commits` stamped ticks, `interval` apart (so that
/// each is measured on its own, not behind the previous one's fan-out), then the
/// latencies the client process heard and the fetches the hub ran.
struct LatencyRound {
    var received: Int
    var p50: Double
    var p99: Double
    var fetchesPerCommit: Double

    static func run(
        _ database: BenchDatabase,
        client: BenchChild,
        subscribers: Int,
        commits: Int,
        interval: Duration
    ) async throws -> LatencyRound {
        try await drain(client)
        let fetchesBefore = database.tickFetches.value
        for _ in 0..<commits {
            try await database.tick()
            try await Task.sleep(for: interval)
        }
        let fetches = database.tickFetches.value - fetchesBefore
        try await waitForDelivery(client, expected: commits * subscribers)
        let report = try await client.ask("report", expecting: "report").compactMap { Double($0) }
        guard report.count == 4 else { throw BenchFailure("a malformed report: \(report)") }
        return LatencyRound(
            received: Int(report[0]), p50: report[1] / 1e6, p99: report[2] / 1e6,
            fetchesPerCommit: Double(fetches) / Double(commits))
    }

    /// Waits until the client heard what was sent before, then forgets it.
    static func drain(_ client: BenchChild) async throws {
        try await waitForDelivery(client, expected: .max)
        _ = try await client.ask("reset", expecting: "ok")
    }

    /// Waits until the client heard every value, or heard nothing new for 300 ms (values
    /// a client read too slowly to get are skipped, by design).
    static func waitForDelivery(_ client: BenchChild, expected: Int) async throws {
        var last = -1
        var unchanged = 0
        while unchanged < 6 {
            let count = try await client.ask("count", expecting: "count").first.flatMap { Int($0) } ?? 0
            if count >= expected { return }
            unchanged = count == last ? unchanged + 1 : 0
            last = count
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
