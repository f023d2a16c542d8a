import Foundation
import NIOConcurrencyHelpers
import Ripple
import RippleLive
import Testing

@Suite(.serialized) struct LiveResumeTests {
    @Test func aResumeWithoutChangesSendsNothingAndFetchesNothing() async throws {
        try await LiveFixture.run { live in
            _ = try await insertPlayer(live.hub, id: 1, score: 10)
            let (client, first) = try await live.subscribe(#"top:{"limit":3}"#)
            await client.close()

            let again = try await live.connect([#"top:{"limit":3}"#], lastEventID: try #require(first?.id))
            defer { Task { await again.close() } }
            try await eventually("reconnected") { live.hub.statistics.rounds >= 2 }
            // The first event after the reconnection is the next commit's: the unchanged
            // value was not sent again, nor fetched again.
            let written = try await insertPlayer(live.hub, id: 2, score: 20)
            let next = try await within("next value") { await again.nextEvent() }
            #expect(next?.sequence == written.sequence)
            #expect(next?.playerNames() == ["p2", "p1"])
            #expect(live.fetches.value == 2)
        }
    }

    @Test(arguments: [false, true]) func aResumeAfterChangesGetsTheFreshValueOnce(liveServer: Bool) async throws {
        // A client that left is found out at the next write: a heartbeat, soon.
        var configuration = LiveConfiguration()
        configuration.heartbeatInterval = .milliseconds(20)
        try await LiveFixture.run(queries: [notesQuery()], configuration: configuration, liveServer: liveServer) { live in
            let subscriptions = [#"top:{"limit":3}"#, "notes"]
            let (client, first) = try await live.subscribe(subscriptions[0], subscriptions[1])
            await client.close()
            try await eventually("disconnected") { live.hub.statistics.connections == 0 }

            // Commits while the client is away: the shared query stays observed during the
            // grace period, and fetches once.
            let written = try await insertPlayer(live.hub, id: 1, score: 10)
            #expect(live.fetches.value == 2)

            let again = try await live.connect(subscriptions, lastEventID: try #require(first?.id))
            defer { Task { await again.close() } }
            let resumed = try await within("resumed value") { await again.nextEvent() }
            #expect(resumed?.event == "update")
            #expect(try #require(resumed?.sequence) >= written.sequence)
            #expect(resumed?.playerNames(0) == ["p1"])
            // `notes` did not change: not sent.
            #expect(resumed?.valueJSON(1) == nil)
            #expect(live.fetches.value == 2)
        }
    }

    @Test func aQueryWithoutSubscribersIsDroppedAfterTheGracePeriod() async throws {
        var configuration = LiveConfiguration()
        configuration.heartbeatInterval = .milliseconds(20)
        configuration.gracePeriod = .milliseconds(50)
        try await LiveFixture.run(configuration: configuration) { live in
            let (client, _) = try await live.subscribe(#"top:{"limit":3}"#)
            await client.close()
            try await eventually("query dropped") { live.hub.statistics.sharedQueries == 0 }
            // No longer observed: a commit costs it nothing.
            _ = try await insertPlayer(live.hub, id: 1, score: 10)
            #expect(live.fetches.value == 1)
        }
    }

    @Test func aPageThatReloadsResumesWithTheIDInTheURL() async throws {
        try await LiveFixture.run(queries: [notesQuery()]) { live in
            let (client, first) = try await live.subscribe(#"top:{"limit":3}"#, "notes")
            defer { Task { await client.close() } }
            let written = try await insertPlayer(live.hub, id: 1, score: 10)

            let id = try #require(first?.id)
            let target = livePath(#"top:{"limit":3}"#, "notes") + "&lastEventId=" + id
            let reloaded = try await SSEClient.connect(port: live.port, target: target)
            defer { Task { await reloaded.close() } }
            let event = try await within("resumed value") { await reloaded.nextEvent() }
            #expect(event?.event == "update")
            #expect(event?.sequence == written.sequence)
            #expect(event?.playerNames(0) == ["p1"])
            #expect(event?.valueJSON(1) == nil)
        }
    }

    @Test func anIDOfARestartedServerGetsAResetThenEverything() async throws {
        let database = try TestDatabase()
        defer { database.remove() }
        let target = livePath(#"top:{"limit":3}"#)
        let lastID: String
        do {
            let pool = try database.makePool()
            let hub = try LiveHub(writer: pool, queries: [topQuery(fetches: Counter())])
            _ = try await insertPlayer(hub, id: 1, score: 10)
            let received = LockedString()
            try await LiveTestServer.run(hub) { port in
                let client = try await SSEClient.connect(port: port, target: target)
                let first = try await within("first value") { await client.nextEvent() }
                received.set(first?.id ?? "")
                await client.close()
            }
            lastID = received.value
            try pool.close()
        }

        // A new server on the same file: a new epoch.
        let pool = try database.makePool()
        let hub = try LiveHub(writer: pool, queries: [topQuery(fetches: Counter())])
        #expect(LiveEventID(parsing: lastID)?.epoch != hub.epoch)
        try await LiveTestServer.run(hub) { port in
            let client = try await SSEClient.connect(port: port, target: target, lastEventID: lastID)
            defer { Task { await client.close() } }
            let reset = try await within("reset") { await client.nextEvent() }
            #expect(reset?.event == "reset")
            #expect(reset?.id.flatMap(LiveEventID.init(parsing:))?.epoch == hub.epoch)
            let values = try await within("values after the reset") { await client.nextEvent() }
            #expect(values?.event == "update")
            #expect(values?.playerNames() == ["p1"])
        }
    }
}

/// A string set from a server's task, read after it ended.
final class LockedString: Sendable {
    private let box = NIOLockedValueBox("")
    func set(_ value: String) { box.withLockedValue { $0 = value } }
    var value: String { box.withLockedValue { $0 } }
}
