import Foundation
import Ripple

// A tour of Ripple's core: a database file in a temporary folder, a table, a transaction,
// a savepoint rolled back, and what reads back.

let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("ripple-demo-\(UUID().uuidString)", isDirectory: true)
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let path = directory.appendingPathComponent("demo.sqlite").path

let dbPool = try DatabasePool(path: path)
print("Opened \(path) (WAL, one writer, concurrent readers)")

try dbPool.write { db in
    try db.execute(sql: """
        CREATE TABLE player (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            score INTEGER NOT NULL)
        """)
}
print("Created table player")

try dbPool.write { db in
    let insert = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
    for (name, score) in [("Arthur", 100), ("Barbara", 1000), ("Craig", 500)] {
        try insert.execute(arguments: [name, score])
    }
}
print("Inserted 3 players in one transaction")

try dbPool.write { db in
    try db.inSavepoint {
        try db.execute(sql: "UPDATE player SET score = score + 50 WHERE name = ?", arguments: ["Arthur"])
        return .commit
    }
    try db.inSavepoint {
        try db.execute(sql: "DELETE FROM player")
        print("Deleted all players inside a savepoint... and rolled it back")
        return .rollback
    }
}
print("Gave Arthur 50 points in a released savepoint")

do {
    try dbPool.write { db in
        try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Nobody", nil])
    }
} catch let error as DatabaseError {
    print("A bad insert was refused and rolled back: \(error.message ?? "")")
}

let rows = try dbPool.read { db in
    try Row.fetchAll(db, sql: "SELECT name, score FROM player ORDER BY score DESC")
}
print("Leaderboard, read from a snapshot:")
for row in rows {
    let name: String = try row["name"]
    let score: Int = try row["score"]
    print("  \(name.padding(toLength: 8, withPad: " ", startingAt: 0)) \(score)")
}
