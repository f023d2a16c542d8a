import Foundation
import Hummingbird
import HummingbirdWebSocket
import Ripple
import RippleLive
import Testing

/// The WebSocket transport, against a live server: the event stream's messages, with
/// subscriptions that come and go on one socket.
@Suite(.serialized) struct LiveWebSocketTests {
    @Test func oneSocketCarriesSeveralSubscriptionsAndTheirChanges() async throws {
        try await LiveFixture.run(queries: [notesQuery()]) { live in
            _ = try await insertPlayer(live.hub, id: 1, score: 10)
            let socket = LiveSocket.connect(port: live.port)
            defer { Task { await socket.close() } }
            socket.subscribe([(0, "top", #"{"limit":3}"#), (7, "notes", nil)])
            let first = try await within("first values") { await socket.nextMessage() }
            #expect(first?.event == "update")
            #expect(first?.playerNames(0) == ["p1"])
            #expect(first?.valueJSON(7) == "[]")
            #expect(first?.sequence == live.hub.statistics.sequence)

            let written = try await insertPlayer(live.hub, id: 2, score: 20)
            let next = try await within("changed value") { await socket.nextMessage() }
            #expect(next?.event == "update")
            #expect(next?.id == written.description)
            #expect(next?.playerNames(0) == ["p2", "p1"])
            #expect(next?.valueJSON(7) == nil)
        }
    }

    @Test func idleConnectionsGetHeartbeats() async throws {
        var configuration = LiveConfiguration()
        configuration.heartbeatInterval = .milliseconds(20)
        try await LiveFixture.run(configuration: configuration) { live in
            let sockets = [LiveSocket.connect(port: live.port), LiveSocket.connect(port: live.port)]
            defer { Task { for socket in sockets { await socket.close() } } }
            for socket in sockets {
                socket.subscribe([(0, "top", #"{"limit":3}"#)])
                _ = try await within("first value") { await socket.nextMessage() }
            }
            // Nothing changes: each socket hears from the hub's one watchdog anyway.
            try await eventually("heartbeats") { sockets.allSatisfy { $0.heartbeats >= 2 } }
            #expect(sockets.allSatisfy { !$0.isClosed })
        }
    }

    @Test func subscribeAndUnsubscribeOnAnOpenSocket() async throws {
        try await LiveFixture.run(queries: [notesQuery()]) { live in
            let socket = LiveSocket.connect(port: live.port)
            defer { Task { await socket.close() } }
            socket.subscribe([(0, "top", #"{"limit":3}"#)])
            _ = try await within("first value") { await socket.nextMessage() }

            // A later subscription gets its own first value alone.
            socket.subscribe([(1, "notes", nil)])
            let added = try await within("added subscription's value") { await socket.nextMessage() }
            #expect(added?.valueJSON(1) == "[]")
            #expect(added?.valueJSON(0) == nil)

            // Messages are handled in order: the refusal that follows the unsubscribe tells
            // that the server has dropped subscription 0.
            socket.send(#"{"type":"unsubscribe","ids":[0]}"#)
            socket.subscribe([(9, "nope", nil)])
            let refusal = try await within("refusal") { await socket.nextMessage() }
            #expect(refusal?.event == "refused")

            _ = try await insertPlayer(live.hub, id: 1, score: 10)
            let note = try await live.hub.write { db in try db.execute(sql: "INSERT INTO other (note) VALUES ('hello')") }
            let next = try await within("the note") { await socket.nextMessage() }
            #expect(next?.id == note.eventID.description)
            #expect(next?.valueJSON(1) == #"["hello"]"#)
            #expect(next?.valueJSON(0) == nil)
        }
    }

    @Test func socketsAndEventStreamsShareOneFetch() async throws {
        try await LiveFixture.run { live in
            let (stream, _) = try await live.subscribe(#"top:{"limit":3}"#)
            defer { Task { await stream.close() } }
            let sockets = (0..<3).map { _ in LiveSocket.connect(port: live.port) }
            defer { Task { for socket in sockets { await socket.close() } } }
            for socket in sockets {
                socket.subscribe([(0, "top", #"{"limit":3}"#)])
                _ = try await within("first value") { await socket.nextMessage() }
            }
            #expect(live.fetches.value == 1)

            let written = try await insertPlayer(live.hub, id: 1, score: 10)
            for socket in sockets {
                let message = try await within("value") { await socket.nextMessage() }
                #expect(message?.id == written.description)
            }
            let event = try await within("event") { await stream.nextEvent() }
            #expect(event?.id == written.description)
            #expect(live.fetches.value == 2)
        }
    }

    @Test func resumeSendsOnlyWhatChangedAndAnotherEpochResets() async throws {
        try await LiveFixture.run(queries: [notesQuery()]) { live in
            let first = LiveSocket.connect(port: live.port)
            first.subscribe([(0, "top", #"{"limit":3}"#), (1, "notes", nil)])
            let firstMessage = try await within("first values") { await first.nextMessage() }
            let seen = try #require(firstMessage)
            await first.close()

            // Only `notes` changed meanwhile: only its value comes, with no new fetch of `top`.
            let fetches = live.fetches.value
            let note = try await live.hub.write { db in try db.execute(sql: "INSERT INTO other (note) VALUES ('away')") }
            let again = LiveSocket.connect(port: live.port)
            defer { Task { await again.close() } }
            again.subscribe([(0, "top", #"{"limit":3}"#), (1, "notes", nil)], lastEventID: seen.id)
            let resumed = try await within("resumed values") { await again.nextMessage() }
            #expect(resumed?.event == "update")
            #expect(try #require(resumed?.sequence) >= note.eventID.sequence)
            #expect(resumed?.valueJSON(1) == #"["away"]"#)
            #expect(resumed?.valueJSON(0) == nil)
            #expect(live.fetches.value == fetches)

            // An id of another epoch (a restarted server): a reset, then every value.
            let other = LiveSocket.connect(port: live.port)
            defer { Task { await other.close() } }
            other.subscribe([(3, "top", #"{"limit":3}"#)], lastEventID: "abc-1")
            let reset = try await within("reset") { await other.nextMessage() }
            #expect(reset?.event == "reset")
            #expect(reset?.json["epoch"] as? String == live.hub.epoch)
            let values = try await within("values after the reset") { await other.nextMessage() }
            #expect(values?.valueJSON(3) == "[]")
            #expect(values?.id == reset?.id)
        }
    }

    @Test func refusedMessagesAreAnsweredAndTheSocketStays() async throws {
        let authorize: @Sendable (Request, BasicWebSocketRequestContext, LiveSubscription) async throws -> LiveScope = { _, _, subscription in
            guard subscription.query != "notes" else { throw HTTPError(.forbidden) }
            return .public
        }
        try await LiveFixture.run(queries: [notesQuery()], authorize: authorize) { live in
            let socket = LiveSocket.connect(port: live.port)
            defer { Task { await socket.close() } }
            let cases: [(message: String, status: Int, error: String, subscription: Int?)] = [
                ("not json", 400, "a message is a JSON object", nil),
                (#"{"type":"hello"}"#, 400, #"a message's "type""#, nil),
                (#"{"type":"subscribe","subscriptions":[{"id":-1,"query":"top"}]}"#, 400, "non-negative integer", nil),
                (#"{"type":"subscribe","subscriptions":[{"id":2,"query":"nope"}]}"#, 404, #"unknown live query "nope""#, 2),
                (#"{"type":"subscribe","subscriptions":[{"id":2,"query":"top","parameters":{"limit":"ten"}}]}"#, 400, "limit is not Int", 2),
                (#"{"type":"subscribe","subscriptions":[{"id":4,"query":"notes"}]}"#, 403, #"subscription to "notes" refused"#, 4),
            ]
            for item in cases {
                socket.send(item.message)
                let refusal = try await within("refusal of \(item.message)") { await socket.nextMessage() }
                #expect(refusal?.event == "refused")
                #expect(refusal?.json["status"] as? Int == item.status)
                #expect((refusal?.json["error"] as? String)?.contains(item.error) == true, "\(String(describing: refusal?.data))")
                #expect(refusal?.json["subscription"] as? Int == item.subscription)
            }
            socket.subscribe([(2, "top", #"{"limit":1}"#)])
            let value = try await within("value after the refusals") { await socket.nextMessage() }
            #expect(value?.valueJSON(2) == "[]")
            socket.subscribe([(2, "top", #"{"limit":2}"#)])
            let taken = try await within("refusal of a used id") { await socket.nextMessage() }
            #expect(taken?.json["status"] as? Int == 409)
        }
    }

    @Test func aFailingQueryIsAnErrorMessage() async throws {
        let missing = LiveQuery("missing") { _ in
            LiveFetch(tracking: Table("nowhere")) { db in try Row.fetchAll(db, sql: "SELECT * FROM nowhere").count }
        }
        try await LiveFixture.run(queries: [missing]) { live in
            let socket = LiveSocket.connect(port: live.port)
            defer { Task { await socket.close() } }
            socket.subscribe([(0, "top", #"{"limit":1}"#), (5, "missing", nil)])
            let first = try await within("value") { await socket.nextMessage() }
            #expect(first?.valueJSON(0) == "[]")
            let error = try await within("error") { await socket.nextMessage() }
            #expect(error?.event == "error")
            #expect(error?.json["q"] as? Int == 5)
            #expect(error?.id == first?.id)
        }
    }

    @Test func aSlowSocketGetsTheLatestValueAndAStalledOneIsClosed() async throws {
        var configuration = LiveConfiguration()
        configuration.stallTimeout = .seconds(3)
        try await LiveFixture.run(queries: [bulkyQuery()], configuration: configuration) { live in
            let hub = live.hub
            let slow = LiveSocket.connect(port: live.port)
            let (fast, _) = try await live.subscribe("bulky")
            defer { Task { await slow.close(); await fast.close() } }
            slow.subscribe([(0, "bulky", nil)])
            _ = try await within("first value") { await slow.nextMessage() }
            slow.setReading(false)

            var commits = 0
            while hub.statistics.skippedValues == 0 {
                commits += 1
                try #require(commits <= 500, "the slow socket never skipped a value")
                _ = try await insertPlayer(hub, id: Int64(commits), score: commits)
                _ = try await within("fast client's value") { await fast.nextEvent() }
            }
            slow.setReading(true)
            var skipped = 0
            while true {
                let next = try await within("slow socket's values") { await slow.nextMessage() }
                let message = try #require(next)
                if let counts = message.json["skipped"] as? [String: Int] { skipped += counts["0"] ?? 0 }
                let count = (message.json["values"] as? [String: Any]).flatMap { $0["0"] as? [String: String] }?["count"]
                if count == String(commits) { break }
            }
            #expect(skipped >= 1)

            // Now it stops reading for good: the server closes it after the stall timeout.
            slow.setReading(false)
            while hub.statistics.connections == 2 {
                commits += 1
                try #require(commits <= 1000, "the stalled socket was never closed")
                _ = try await insertPlayer(hub, id: Int64(commits), score: commits)
                _ = try await within("fast client's value") { await fast.nextEvent() }
                try await Task.sleep(for: .milliseconds(20))
            }
            slow.setReading(true)
            try await eventually("the stalled socket is closed") { slow.isClosed }
        }
    }
}
