import Foundation

/// The benchmark's own process: runs the server (a hub on a fresh database), spawns the
/// client processes, and prints the table.
struct Driver {
    var rounds = 5
    var fanOut = 1000
    var idleSubscribers = 10_000
    var idleRounds = 3
    /// Whether the latency rounds run on the connections of `.liveHTTP1(hub)`.
    var liveServer = false

    func run() async throws {
        var ranges = Ranges()
        try await measureIdleMemory(&ranges)
        let idleRanges = ranges
        let database = try BenchDatabase()
        defer { database.remove() }
        // A first tick, so that every first value carries a stamp.
        try await database.tick()
        try await serveLiveQueries(database.hub, liveServer: liveServer) { port in
            let ranges = try await measureLatencies(database, port: port, idleRanges)
            print(ranges.table())
        }
        print(Self.anchors)
    }

    private func measureIdleMemory(_ ranges: inout Ranges) async throws {
        for round in 1...idleRounds {
            log("idle round \(round): \(idleSubscribers) subscribers")
            let idle = try await IdleRound.run(subscribers: idleSubscribers)
            ranges.add("idle subscribers held by the server process", Double(idle.held), unit: "subscribers", goal: "≥ 10,000")
            ranges.add("resident memory per idle subscriber", idle.bytesPerSubscriber / 1024, unit: "KB", goal: "≤ 20 KB")
            ranges.add("the same, with the allocator's free pages given back", idle.trimmedBytesPerSubscriber / 1024, unit: "KB", goal: "≤ 20 KB")
            let tuned = try await IdleRound.run(subscribers: idleSubscribers, liveServer: true)
            ranges.add("the same, with the connections of `.liveHTTP1(hub)`", tuned.bytesPerSubscriber / 1024, unit: "KB", goal: "≤ 20 KB")
            let bare = try await IdleRound.run(subscribers: idleSubscribers, bare: true)
            ranges.add("baseline: resident memory per held plain Hummingbird stream, no hub", bare.bytesPerSubscriber / 1024, unit: "KB")
        }
    }

    private func measureLatencies(_ database: BenchDatabase, port: Int, _ ranges: Ranges) async throws -> Ranges {
        var ranges = ranges
        let portArgument = String(port)
        log("one subscriber")
        let single = try BenchChild(["client", "--port", portArgument, "--connections", "1"])
        _ = try await single.expect("ready")
        for _ in 0..<rounds {
            let round = try await LatencyRound.run(database, client: single, subscribers: 1, commits: 100, interval: .milliseconds(10))
            ranges.add("commit-to-client p50, 1 subscriber", round.p50, unit: "ms")
            ranges.add("commit-to-client p99, 1 subscriber", round.p99, unit: "ms")
        }
        await single.quit()

        log("\(fanOut) subscribers, beside nothing, a bulky client, a throttled bulky client")
        let many = try BenchChild(["client", "--port", portArgument, "--connections", String(fanOut)])
        _ = try await many.expect("ready")
        let besides: [Beside] = [.nothing, .bulky, .throttled]
        for round in 0..<rounds {
            // Which goes first rotates, so that drift favours none.
            for index in 0..<besides.count {
                try await measureFanOut(database, many, port: portArgument, beside: besides[(index + round) % besides.count], &ranges)
            }
            let unrelated = try await UnrelatedRound.run(database, client: many, commits: 100)
            ranges.add("fetches per unrelated commit, \(fanOut) subscribers", unrelated.fetchesPerCommit, unit: "fetches", goal: "0")
            ranges.add("events sent per unrelated commit, \(fanOut) subscribers", unrelated.eventsPerCommit, unit: "events", goal: "0")
            ranges.add("commits the hub counted per unrelated commit made", unrelated.countedPerCommit, unit: "commits", goal: "1")
        }
        await many.quit()
        let p99 = "commit-to-client p99, \(fanOut) subscribers"
        ranges.addRatio(
            "others' p99, throttled client ÷ bulky client reading at full speed", of: p99 + Beside.throttled.suffix, over: p99 + Beside.bulky.suffix,
            goal: "≤ 1.10")
        ranges.addRatio("others' p99, throttled client ÷ nothing beside", of: p99 + Beside.throttled.suffix, over: p99, goal: "≤ 1.10")
        return ranges
    }

    /// Published by others, not measured here: what the numbers above stand beside.
    static let anchors = """

        Anchors, theirs, not measured here (other machines, networks and workloads):
        - Electric: 6 ms commit-to-client, as issue 36 quotes it (https://electric-sql.com/docs/reference/benchmarks
          shows its live-update latencies as charts; the number itself was not found in a searchable text).
        - Supabase Realtime Broadcast over WebSockets, 32,000 users on a 2-6 node AWS cluster, k6 load generators on AWS:
          median 6 ms, p95 28 ms, p99 213 ms; Broadcast from the database (realtime.broadcast_changes), 80,000 users:
          median 46 ms, p95 132 ms, p99 159 ms (https://supabase.com/docs/guides/realtime/benchmarks).
        """
}

/// Progress, on standard error: standard output is the table.
func log(_ message: String) {
    writeLine(message, to: STDERR_FILENO)
}
