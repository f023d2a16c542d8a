import Foundation
import Ripple

/// The database of the app: its schema, its migrations, and the writes the app makes.
///
/// Reads are open to all (``reader``); writes go through the methods below, which keep the
/// data valid.
public final class AppDatabase: Sendable {
    private let dbWriter: any DatabaseWriter

    /// Opens the database of `dbWriter`, and migrates it to the current schema.
    public init(_ dbWriter: any DatabaseWriter) throws {
        self.dbWriter = dbWriter
        try Self.migrator.migrate(dbWriter)
    }

    /// Read access: for fetches and observations.
    public var reader: any DatabaseReader { dbWriter }

    /// The schema, one migration at a time. A migration that has shipped never changes:
    /// the next change is a new migration.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        #if DEBUG
        // While a migration is being written, a changed definition starts from scratch.
        migrator.eraseDatabaseOnSchemaChange = true
        #endif
        migrator.registerMigration("v1") { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().collate(.localizedCaseInsensitiveCompare)
                t.column("score", .integer).notNull()
            }
        }
        migrator.registerMigration("v2") { db in
            try db.create(index: "player_on_score", on: "player", columns: ["score"])
        }
        return migrator
    }

    /// The database on disk at `path`, in WAL mode, for the app.
    public static func open(path: String) throws -> AppDatabase {
        try AppDatabase(DatabasePool(path: path))
    }

    /// An empty in-memory database, for tests and previews.
    public static func empty() throws -> AppDatabase {
        try AppDatabase(DatabaseQueue())
    }

    /// What a write refuses.
    public enum ValidationError: Error, Equatable {
        case missingName
    }

    /// Inserts or updates `player`, whose id is set after an insert.
    public func savePlayer(_ player: inout Player) throws {
        if player.name.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError.missingName
        }
        player = try dbWriter.write { [player] db in try player.saved(db) }
    }

    /// Deletes the players of `ids`.
    public func deletePlayers(ids: [Int64]) throws {
        try dbWriter.write { db in
            _ = try Player.deleteAll(db, keys: ids)
        }
    }

    /// Deletes every player.
    public func deleteAllPlayers() throws {
        try dbWriter.write { db in
            _ = try Player.deleteAll(db)
        }
    }

    /// Adds `count` random players, in one transaction: observers see them all at once.
    public func createRandomPlayers(count: Int = 8) throws {
        try dbWriter.write { db in
            for _ in 0..<count {
                _ = try Player.makeRandom().inserted(db)
            }
        }
    }

    /// Sets the score of the player of `id`, when there is one; writes only if it changes.
    public func setScore(_ score: Int, ofPlayer id: Int64) throws {
        try dbWriter.write { db in
            guard var player = try Player.fetchOne(db, key: id) else { return }
            try player.updateChanges(db) { $0.score = score }
        }
    }
}
