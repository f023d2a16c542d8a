import Foundation

@testable import Ripple

/// The record of the documentation samples.
struct Player: Codable, Hashable, FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var name: String
    var score: Int
    var teamId: Int64?

    init(id: Int64? = nil, name: String, score: Int = 0, teamId: Int64? = nil) {
        self.id = id
        self.name = name
        self.score = score
        self.teamId = teamId
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    static let score = Column("score")
    static let name = Column("name")
}

struct Team: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
}

/// A database with the player and team tables of the samples.
func makePlayerDatabase() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
        try db.execute(
            sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE player (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    score INTEGER NOT NULL DEFAULT 0,
                    teamId INTEGER REFERENCES team(id) ON DELETE CASCADE);
                """)
    }
    return dbQueue
}
