import Foundation
import Hummingbird
import HummingbirdWebSocket
import Ripple
import RippleLive
import Testing

struct ScoreTooHigh: Error, CustomStringConvertible {
    var description: String { "a score is too high" }
}

@Suite(.serialized) struct LiveErrorTests {
    @Test func aFailingQueryIsAnErrorEventAndTheConnectionStays() async throws {
        let picky = LiveQuery("picky") { _ in
            LiveFetch(tracking: Table("player")) { db in
                let players = try Player.fetchAll(db)
                if players.contains(where: { $0.score > 100 }) { throw ScoreTooHigh() }
                return players
            }
        }
        let missing = LiveQuery("missing") { _ in
            LiveFetch(tracking: Table("nowhere")) { db in try Row.fetchAll(db, sql: "SELECT * FROM nowhere").count }
        }
        try await LiveFixture.run(queries: [picky, missing]) { live in
            let hub = live.hub
            let (client, first) = try await live.subscribe("picky", "missing")
            defer { Task { await client.close() } }
            #expect(first?.event == "update")
            #expect(first?.valueJSON(0) == "[]")
            let missingError = try await within("error of the missing table") { await client.nextEvent() }
            #expect(missingError?.event == "error")
            #expect(missingError?.json["q"] as? Int == 1)
            #expect(missingError?.id == first?.id)

            _ = try await insertPlayer(hub, id: 1, score: 1000)
            let failure = try await within("error event") { await client.nextEvent() }
            #expect(failure?.event == "error")
            #expect(failure?.json["q"] as? Int == 0)
            #expect(failure?.json["error"] as? String == "a score is too high")

            _ = try await hub.write { db in try db.execute(sql: "UPDATE player SET score = 5") }
            let recovered = try await within("value after the error") { await client.nextEvent() }
            #expect(recovered?.event == "update")
            #expect(recovered?.playerNames(0) == ["p1"])
        }
    }

    @Test func malformedSubscriptionsGetA4xxWithAJSONMessage() async throws {
        let authorize: @Sendable (Request, BasicWebSocketRequestContext, LiveSubscription) async throws -> LiveScope = { request, _, _ in
            guard request.headers[.authorization] != "Bearer nobody" else { throw HTTPError(.forbidden) }
            return .public
        }

        try await LiveFixture.run(authorize: authorize) { live in
            let cases: [(target: String, status: UInt, message: String, subscription: Int?, headers: [(String, String)])] = [
                ("/live", 400, "no subscription", nil, []),
                (livePath(#"top:{"limit":1}"#, "nope"), 404, #"unknown live query "nope""#, 1, []),
                (livePath(#"top:{"limit":"#), 400, #"malformed parameters of live query "top""#, 0, []),
                (livePath(#"top:{"limit":"ten"}"#), 400, "limit is not Int", 0, []),
                (livePath("top"), 400, "needs parameters", 0, []),
                (livePath(#"top:{"limit":1}"#), 403, #"subscription to "top" refused"#, 0, [("Authorization", "Bearer nobody")]),
            ]
            for item in cases {
                let client = try await SSEClient.connect(port: live.port, target: item.target, headers: item.headers)
                var status: UInt?
                var body: String?
                loop: while true {
                    switch try await within("response to \(item.target)", { await client.next() }) {
                    case .head(let head, _): status = head.code
                    case .body(let text): body = text; break loop
                    case .event, .closed: break loop
                    }
                }
                await client.close()
                #expect(status == item.status, "\(item.target)")
                let json = try #require((try? JSONSerialization.jsonObject(with: Data((body ?? "").utf8))) as? [String: Any], "\(item.target)")
                let message = json["error"] as? String ?? ""
                #expect(message.contains(item.message), "\(message)")
                #expect(json["subscription"] as? Int == item.subscription)
            }
        }
    }
}

@Suite(.serialized) struct LiveAuthorizationTests {
    @Test func authorizationRunsOncePerSubscriptionAndScopesTheSharing() async throws {
        let authorizations = Counter()
        let mine = LiveQuery("mine") { scope in
            LiveFetch(tracking: Table("player")) { db in
                try Player.filter(Column("name") == scope.name).fetchAll(db)
            }
        }
        let authorize: @Sendable (Request, BasicWebSocketRequestContext, LiveSubscription) async throws -> LiveScope = { request, _, _ in
            authorizations.increment()
            return LiveScope(request.headers[.authorization] ?? "anonymous")
        }

        try await LiveFixture.run(queries: [mine], authorize: authorize) { live in
            let hub = live.hub
            let (alice, _) = try await live.subscribe("mine", headers: [("Authorization", "p1")])
            let (bob, _) = try await live.subscribe("mine", headers: [("Authorization", "p2")])
            defer { Task { await alice.close(); await bob.close() } }
            #expect(hub.statistics.sharedQueries == 2)

            _ = try await insertPlayer(hub, id: 1, score: 1)
            _ = try await insertPlayer(hub, id: 2, score: 2)
            try await eventually("alice sees herself") { await alice.nextEvent()?.playerNames() == ["p1"] }
            try await eventually("bob sees himself") { await bob.nextEvent()?.playerNames() == ["p2"] }
            #expect(authorizations.value == 2)
        }
    }
}
