import Foundation
import Ripple
import RippleLive
import Testing

@Suite(.serialized) struct LiveSubscriptionTests {
    @Test(arguments: [false, true]) func aSubscriptionGetsTheCurrentValueThenFreshOnes(liveServer: Bool) async throws {
        try await LiveFixture.run(liveServer: liveServer) { live in
            _ = try await insertPlayer(live.hub, id: 1, score: 10)
            let (client, first) = try await live.subscribe(#"top:{"limit":10}"#)
            defer { Task { await client.close() } }
            #expect(first?.event == "update")
            #expect(first?.playerNames() == ["p1"])
            #expect(first?.id.flatMap(LiveEventID.init(parsing:))?.epoch == live.hub.epoch)

            let written = try await insertPlayer(live.hub, id: 2, score: 20)
            let second = try await within("fresh value") { await client.nextEvent() }
            #expect(second?.playerNames() == ["p2", "p1"])
            #expect(second?.sequence == written.sequence)
        }
    }

    @Test func aHubOnADatabaseQueueServesToo() async throws {
        let database = try TestDatabase()
        defer { database.remove() }
        let queue = try database.makeQueue()
        let hub = try LiveHub(writer: queue, queries: [topQuery(fetches: Counter()), notesQuery()])
        try await LiveTestServer.run(hub) { port in
            let client = try await SSEClient.connect(port: port, target: livePath(#"top:{"limit":3}"#, "notes"))
            defer { Task { await client.close() } }
            let first = try await within("first values") { await client.nextEvent() }
            #expect(first?.valueJSON(0) == "[]")
            #expect(first?.valueJSON(1) == "[]")
            let written = try await insertPlayer(hub, id: 1, score: 1)
            let next = try await within("fresh value") { await client.nextEvent() }
            #expect(next?.sequence == written.sequence)
            #expect(next?.playerNames(0) == ["p1"])
        }
    }

    @Test func aRequestIsALiveFetchOfItsRecords() async throws {
        let best = LiveQuery("best") { _ in LiveFetch(all: Player.order(Column("score").desc).limit(1)) }
        try await LiveFixture.run(queries: [best]) { live in
            let (client, first) = try await live.subscribe("best")
            defer { Task { await client.close() } }
            #expect(first?.valueJSON(0) == "[]")
            _ = try await insertPlayer(live.hub, id: 1, score: 10)
            let next = try await within("fresh value") { await client.nextEvent() }
            #expect(next?.playerNames() == ["p1"])
        }
    }

    @Test func anUnrelatedCommitCostsNoFetchAndSendsNothing() async throws {
        try await LiveFixture.run { live in
            let (client, _) = try await live.subscribe(#"top:{"limit":10}"#)
            defer { Task { await client.close() } }
            #expect(live.fetches.value == 1)

            // Unrelated commits: no fetch, no event. The next event is the related commit's.
            for id in 1...5 {
                _ = try await live.hub.write { db in try db.execute(sql: "INSERT INTO other (id, note) VALUES (?, 'x')", arguments: [id]) }
            }
            #expect(live.fetches.value == 1)
            let related = try await insertPlayer(live.hub, id: 1, score: 1)
            let event = try await within("related value") { await client.nextEvent() }
            #expect(event?.sequence == related.sequence)
            #expect(event?.playerNames() == ["p1"])
            #expect(live.fetches.value == 2)
        }
    }

    @Test func subscribersOfOneQueryShareOneFetchAndTheSameBytes() async throws {
        try await LiveFixture.run { live in
            _ = try await insertPlayer(live.hub, id: 1, score: 10)
            // The same parameters, spelled differently, are one shared query.
            let spellings = [#"{"limit":5}"#, #"{ "limit" : 5 }"#, #"{"limit":5 }"#]
            var clients: [SSEClient] = []
            for index in 0..<6 {
                let (client, first) = try await live.subscribe("top:" + spellings[index % spellings.count])
                clients.append(client)
                #expect(first?.playerNames() == ["p1"])
            }
            #expect(live.fetches.value == 1)
            #expect(live.hub.statistics.sharedQueries == 1)

            for (commit, id) in (2...4).enumerated() {
                _ = try await insertPlayer(live.hub, id: Int64(id), score: id * 10)
                var datas: Set<String> = []
                for client in clients {
                    let event = try await within("fan-out") { await client.nextEvent() }
                    datas.insert(try #require(event?.data))
                }
                #expect(datas.count == 1, "identical bytes for all")
                #expect(live.fetches.value == 2 + commit)
            }
            for client in clients { await client.close() }
        }
    }

    @Test func theValuesOfOneCommitArriveInOneEvent() async throws {
        try await LiveFixture.run(queries: [notesQuery()]) { live in
            let (client, first) = try await live.subscribe(#"top:{"limit":3}"#, "notes")
            defer { Task { await client.close() } }
            #expect(first?.valueJSON(0) == "[]")
            #expect(first?.valueJSON(1) == "[]")

            let written = try await live.hub.write { db in
                try Player(id: 1, name: "p1", score: 1).insert(db)
                try db.execute(sql: "INSERT INTO other (id, note) VALUES (1, 'hello')")
            }
            let both = try await within("both values") { await client.nextEvent() }
            #expect(both?.sequence == written.eventID.sequence)
            #expect(both?.playerNames(0) == ["p1"])
            #expect(both?.valueJSON(1) == #"["hello"]"#)
        }
    }

    @Test func anotherConnectionsCommitReachesSubscribers() async throws {
        try await LiveFixture.run { live in
            let (client, first) = try await live.subscribe(#"top:{"limit":3}"#)
            defer { Task { await client.close() } }
            let before = try #require(first?.sequence)

            // Another connection to the file, as another process would write: the hub's
            // writer hears of it only through Ripple's observation of other processes.
            let other = try DatabaseQueue(path: live.path)
            try await other.write { db in try Player(id: 7, name: "elsewhere", score: 70).insert(db) }
            let event = try await within("value of the other connection's commit") { await client.nextEvent() }
            #expect(event?.playerNames() == ["elsewhere"])
            #expect(try #require(event?.sequence) > before)
            try other.close()
        }
    }
}
