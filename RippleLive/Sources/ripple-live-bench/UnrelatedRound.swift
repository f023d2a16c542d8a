/// Commits that no live query reads, with subscribers connected: the fetches they cost
/// the hub and the events they sent, per commit.
struct UnrelatedRound {
    var fetchesPerCommit: Double
    var eventsPerCommit: Double
    /// The commits the hub counted, per commit made: more than 1 when Ripple took one of
    /// this process's commits for another process's.
    var countedPerCommit: Double

    static func run(_ database: BenchDatabase, client: BenchChild, commits: Int) async throws -> UnrelatedRound {
        try await LatencyRound.drain(client)
        let fetchesBefore = database.hub.statistics.fetches
        let sequenceBefore = database.hub.statistics.sequence
        for _ in 0..<commits {
            try await database.unrelatedWrite()
        }
        // Long enough for a value to reach the client, had one been sent.
        try await Task.sleep(for: .milliseconds(300))
        let fetches = database.hub.statistics.fetches - fetchesBefore
        let counted = database.hub.statistics.sequence - sequenceBefore
        let events = try await client.ask("count", expecting: "count").first.flatMap { Int($0) } ?? 0
        return UnrelatedRound(
            fetchesPerCommit: Double(fetches) / Double(commits), eventsPerCommit: Double(events) / Double(commits),
            countedPerCommit: Double(counted) / Double(commits))
    }
}
