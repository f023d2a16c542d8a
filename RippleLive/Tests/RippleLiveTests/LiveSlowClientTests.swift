import Foundation
import Ripple
import RippleLive
import Testing

/// A query whose value is large, so that a client that does not read fills the socket
/// buffers after a few values.
func bulkyQuery() -> LiveQuery {
    LiveQuery("bulky") { _ in
        LiveFetch(tracking: Table("player")) { db in
            let count = try Player.fetchCount(db)
            return ["count": String(count), "padding": String(repeating: "x", count: 256 * 1024)]
        }
    }
}

@Suite(.serialized) struct LiveSlowClientTests {
    @Test func aSlowClientGetsTheLatestValueWithTheSkippedCount() async throws {
        try await LiveFixture.run(queries: [bulkyQuery()]) { live in
            let hub = live.hub
            let (slow, _) = try await live.subscribe("bulky", receiveBufferSize: 4096)
            let (fast, _) = try await live.subscribe("bulky")
            defer { Task { await slow.close(); await fast.close() } }
            try await slow.pauseReading()

            // Commit until the slow client's mailbox replaced a value it had not sent; the
            // fast client gets every value meanwhile.
            var commits = 0
            while hub.statistics.skippedValues == 0 {
                commits += 1
                try #require(commits <= 500, "the slow client never skipped a value")
                _ = try await insertPlayer(hub, id: Int64(commits), score: commits)
                let event = try await within("fast client's value") { await fast.nextEvent() }
                #expect((event?.json["values"] as? [String: Any]).flatMap { $0["0"] as? [String: String] }?["count"] == String(commits))
            }

            try await slow.resumeReading()
            var last: SSEEvent?
            var skipped = 0
            while true {
                let event = try await within("slow client's values") { await slow.nextEvent() }
                last = event
                if let counts = event?.json["skipped"] as? [String: Int] { skipped += counts["0"] ?? 0 }
                let count = (event?.json["values"] as? [String: Any]).flatMap { $0["0"] as? [String: String] }?["count"]
                if count == String(commits) { break }
            }
            #expect(skipped >= 1)
            #expect(try #require(last?.sequence) == hub.statistics.sequence)
        }
    }

    /// With any server (the hub's watchdog ends the task that writes), and with the live
    /// server's connections (the channel closes itself).
    @Test(arguments: [false, true]) func aStalledClientIsDisconnectedAndTheOthersGoOn(liveServer: Bool) async throws {
        var configuration = LiveConfiguration()
        configuration.stallTimeout = .milliseconds(200)
        try await LiveFixture.run(queries: [bulkyQuery()], configuration: configuration, liveServer: liveServer) { live in
            let hub = live.hub
            let (stalled, _) = try await live.subscribe("bulky", receiveBufferSize: 4096)
            let (fast, _) = try await live.subscribe("bulky")
            defer { Task { await stalled.close(); await fast.close() } }
            try await stalled.pauseReading()

            var commits = 0
            while hub.statistics.connections == 2 {
                commits += 1
                try #require(commits <= 500, "the stalled client was never disconnected")
                _ = try await insertPlayer(hub, id: Int64(commits), score: commits)
                _ = try await within("fast client's value") { await fast.nextEvent() }
                if commits > 20 { try await Task.sleep(for: .milliseconds(20)) }
            }
            // The server closed the stalled connection: once it reads again, the client
            // sees what was sent, then the end.
            try await stalled.resumeReading()
            try await within("stalled connection closed") {
                while await stalled.nextEvent() != nil {}
            }
            // The other client still gets values.
            _ = try await insertPlayer(hub, id: 1000, score: 0)
            let event = try await within("fast client's value after") { await fast.nextEvent() }
            #expect(event?.event == "update")
        }
    }
}
