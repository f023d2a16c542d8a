import Foundation
import Ripple
import RippleLive

struct Top: Codable, Sendable {
    var limit: Int
}

/// The best players, by score; counts its fetches.
func topQuery(fetches: Counter, name: String = "top") -> LiveQuery {
    LiveQuery(name, parameters: Top.self) { top, _ in
        LiveFetch(tracking: Table("player")) { db in
            fetches.increment()
            return try Player.order(Column("score").desc, Column("id")).limit(top.limit).fetchAll(db)
        }
    }
}

func insertPlayer(_ hub: LiveHub, id: Int64, score: Int) async throws -> LiveEventID {
    try await hub.write { db in
        try Player(id: id, name: "p\(id)", score: score).insert(db)
    }.eventID
}

extension SSEEvent {
    /// The sequence of the event's id.
    var sequence: UInt64? { id.flatMap { LiveEventID(parsing: $0)?.sequence } }

    /// The JSON text of the value of subscription `index` in an `update` event.
    func valueJSON(_ index: Int) -> String? {
        guard let values = json["values"] as? [String: Any], let value = values["\(index)"] else { return nil }
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The names of the players of subscription `index`.
    func playerNames(_ index: Int = 0) -> [String]? {
        guard let values = json["values"] as? [String: Any], let players = values["\(index)"] as? [[String: Any]] else { return nil }
        return players.compactMap { $0["name"] as? String }
    }
}

/// `/live?q=...` with each subscription percent-encoded.
func livePath(_ subscriptions: String...) -> String {
    livePath(subscriptions)
}

func livePath(_ subscriptions: [String]) -> String {
    "/live?" + subscriptions.map { "q=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0) }.joined(separator: "&")
}

/// The notes of the `other` table, in order.
func notesQuery() -> LiveQuery {
    LiveQuery("notes") { _ in
        LiveFetch(tracking: Table("other")) { db in try String.fetchAll(db, sql: "SELECT note FROM other ORDER BY id") }
    }
}
