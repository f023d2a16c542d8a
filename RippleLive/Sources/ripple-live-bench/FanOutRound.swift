/// What runs beside the fan-out's subscribers in one of its rounds: nothing, or one
/// client of the bulky query (64 KB a commit), reading at full speed or throttled. The
/// bulky client reading at full speed isolates what the throttling itself costs the
/// others from what the bulky query's fetch and writes cost them.
enum Beside {
    case nothing
    case bulky
    case throttled

    var suffix: String {
        switch self {
        case .nothing: ""
        case .bulky: " + 1 bulky"
        case .throttled: " + 1 bulky throttled"
        }
    }
}

extension Driver {
    func measureFanOut(_ database: BenchDatabase, _ many: BenchChild, port: String, beside: Beside, _ ranges: inout Ranges) async throws {
        var other: BenchChild?
        switch beside {
        case .nothing:
            break
        case .bulky:
            other = try BenchChild(["client", "--port", port, "--connections", "1", "--bulky"])
            _ = try await other?.expect("ready")
        case .throttled:
            other = try BenchChild(["client", "--port", port, "--connections", "1", "--throttled"])
            _ = try await other?.expect("ready")
            // Commits until the throttled client is behind (the server's write to it
            // waits, and its mailbox replaces values); the round starts then.
            let ticks = try await fallBehind(database)
            ranges.add("commits until the throttled client fell behind", Double(ticks), unit: "commits")
        }
        let skippedBefore = database.hub.statistics.skippedValues
        let round = try await LatencyRound.run(database, client: many, subscribers: fanOut, commits: 30, interval: .milliseconds(100))
        let suffix = beside.suffix
        ranges.add("commit-to-client p50, \(fanOut) subscribers\(suffix)", round.p50, unit: "ms")
        ranges.add("commit-to-client p99, \(fanOut) subscribers\(suffix)", round.p99, unit: "ms")
        ranges.add(
            "values received of those sent, \(fanOut) subscribers\(suffix)", Double(round.received) / Double(30 * fanOut), unit: "fraction", goal: "1"
        )
        ranges.add("fetches of their query per commit, \(fanOut) subscribers\(suffix)", round.fetchesPerCommit, unit: "fetches", goal: "1")
        if beside == .throttled {
            ranges.add(
                "values the throttled client skipped in a round", Double(database.hub.statistics.skippedValues - skippedBefore), unit: "values")
        }
        await other?.quit()
    }

    /// Ticks until a connection's mailbox skipped a value; the number of ticks.
    private func fallBehind(_ database: BenchDatabase) async throws -> Int {
        let skipped = database.hub.statistics.skippedValues
        for ticks in 1...200 {
            try await database.tick()
            // The pace of the rounds, which the others follow without skipping.
            try await Task.sleep(for: .milliseconds(100))
            if database.hub.statistics.skippedValues > skipped { return ticks }
        }
        throw BenchFailure("the throttled client never fell behind")
    }
}
