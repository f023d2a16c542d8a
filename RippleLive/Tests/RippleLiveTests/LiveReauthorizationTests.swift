import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOConcurrencyHelpers
import RippleLive
import Testing

/// Grants that expire: a subscription is authorized again when its grant expires, with
/// the same request, never once per commit.
@Suite(.serialized) struct LiveReauthorizationTests {
    /// Grants the first authorization of `top` for a moment, then what `renewal` says.
    final class Grants: Sendable {
        let calls = NIOLockedValueBox(0)
        let renewal: @Sendable () throws -> LiveGrant

        init(renewal: @escaping @Sendable () throws -> LiveGrant) {
            self.renewal = renewal
        }

        func grant(_ subscription: LiveSubscription) throws -> LiveGrant {
            let call = calls.withLockedValue { $0 += 1; return $0 }
            guard subscription.query == "top" else { return LiveGrant(.public) }
            return call == 1 ? LiveGrant(.public, until: Date().addingTimeInterval(0.2)) : try renewal()
        }
    }

    @Test func anExpiredGrantIsRenewedOnceAndNotPerCommit() async throws {
        let grants = Grants { LiveGrant(.public) }
        try await LiveFixture.run(grant: { _, _, subscription in try grants.grant(subscription) }) { live in
            let (client, _) = try await live.subscribe(#"top:{"limit":3}"#)
            defer { Task { await client.close() } }
            try await eventually("renewed at its expiry") { grants.calls.withLockedValue { $0 } == 2 }

            // The renewed grant does not expire: commits authorize nothing.
            for id in 1...10 {
                let written = try await insertPlayer(live.hub, id: Int64(id), score: id)
                let event = try await within("value") { await client.nextEvent() }
                #expect(event?.id == written.description)
            }
            #expect(grants.calls.withLockedValue { $0 } == 2)
        }
    }

    @Test func aRefusedRenewalClosesTheEventStream() async throws {
        let grants = Grants { throw HTTPError(.unauthorized) }
        try await LiveFixture.run(grant: { _, _, subscription in try grants.grant(subscription) }) { live in
            let (client, first) = try await live.subscribe(#"top:{"limit":3}"#)
            defer { Task { await client.close() } }
            #expect(first?.event == "update")
            try await within("the stream ends") {
                while await client.nextEvent() != nil {}
            }
            try await eventually("the connection is gone") { live.hub.statistics.connections == 0 }
            #expect(grants.calls.withLockedValue { $0 } == 2)
        }
    }

    @Test func aRefusedRenewalEndsOneSubscriptionOfASocket() async throws {
        let grants = Grants { throw HTTPError(.unauthorized) }
        try await LiveFixture.run(queries: [notesQuery()], grant: { _, _, subscription in try grants.grant(subscription) }) { live in
            let socket = LiveSocket.connect(port: live.port)
            defer { Task { await socket.close() } }
            socket.subscribe([(0, "top", #"{"limit":3}"#), (1, "notes", nil)])
            _ = try await within("first values") { await socket.nextMessage() }

            let refusal = try await within("refusal at expiry") { await socket.nextMessage() }
            #expect(refusal?.event == "refused")
            #expect(refusal?.json["status"] as? Int == 401)
            #expect(refusal?.json["subscription"] as? Int == 0)

            // `top` is gone, `notes` stays on the open socket.
            _ = try await insertPlayer(live.hub, id: 1, score: 10)
            let note = try await live.hub.write { db in try db.execute(sql: "INSERT INTO other (note) VALUES ('still here')") }
            let next = try await within("the note") { await socket.nextMessage() }
            #expect(next?.id == note.eventID.description)
            #expect(next?.valueJSON(1) == #"["still here"]"#)
            #expect(next?.valueJSON(0) == nil)
        }
    }
}
