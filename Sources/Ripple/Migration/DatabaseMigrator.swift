import Foundation

/// Evolves the database schema over time: a list of migrations, each run once, in the
/// order they were registered.
///
/// ```swift
/// var migrator = DatabaseMigrator()
/// migrator.registerMigration("Create authors") { db in
///     try db.execute(sql: "CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT)")
/// }
/// migrator.registerMigration("Add birth years") { db in
///     try db.execute(sql: "ALTER TABLE author ADD COLUMN birthYear INTEGER")
/// }
/// try migrator.migrate(dbQueue)
/// ```
///
/// Each migration runs in a transaction of its own: one that throws is rolled back, the
/// migrations after it do not run, and `migrate` throws its error. The identifiers of the
/// applied migrations are kept in the database, in the `grdb_migrations` table of GRDB, so
/// that a database migrated by GRDB goes on migrating with Ripple, and the other way round.
///
/// By default, a migration runs with foreign keys off, and the whole database is checked
/// for foreign key violations before the migration commits (a violation fails it); with
/// `foreignKeyChecks: .immediate`, foreign keys stay on and SQLite checks each statement.
public struct DatabaseMigrator: Sendable {
    /// How a migration checks foreign keys.
    public enum ForeignKeyChecks: Sendable {
        /// Foreign keys are off while the migration runs, and the whole database is
        /// checked before it commits (unless `disablingDeferredForeignKeyChecks()`).
        case deferred
        /// Foreign keys stay on: SQLite checks each statement. Such a migration must not
        /// recreate tables.
        case immediate
    }

    struct Migration: Sendable {
        let identifier: String
        /// The identifiers of the migrations this one replaces (see
        /// ``registerMigration(_:foreignKeyChecks:merging:migrate:)``).
        let mergedIdentifiers: Set<String>
        let foreignKeyChecks: ForeignKeyChecks
        let checksDeferredForeignKeys: Bool
        let migrate: @Sendable (Database, Set<String>) throws -> Void
    }

    private var registered: [Migration] = []
    private var defersForeignKeyChecks = true

    /// When true, `migrate` erases the database and migrates it from scratch when it
    /// finds that migrations changed since the database was migrated: a migration was
    /// removed or renamed, or the schema differs from the one the applied migrations make.
    ///
    /// Handy while the schema is designed; it destroys data, so do not ship it:
    ///
    /// ```swift
    /// #if DEBUG
    /// migrator.eraseDatabaseOnSchemaChange = true
    /// #endif
    /// ```
    public var eraseDatabaseOnSchemaChange = false

    public init() {}

    /// The identifiers of the registered migrations, in order.
    public var migrations: [String] { registered.map(\.identifier) }

    /// Registers a migration. Registering two migrations with the same identifier is a
    /// fatal error.
    public mutating func registerMigration(
        _ identifier: String,
        foreignKeyChecks: ForeignKeyChecks = .deferred,
        migrate: @escaping @Sendable (Database) throws -> Void
    ) {
        registerMigration(identifier, foreignKeyChecks: foreignKeyChecks, merging: []) { db, _ in try migrate(db) }
    }

    /// Registers a migration that replaces migrations of a previous version of the
    /// application: `migrate` gets the identifiers of those that the database applied, and
    /// once it ran, they are forgotten (a database that applied all of them, and this
    /// one, only forgets them).
    ///
    /// ```swift
    /// // Before: migrations "v1", "v2" and "v3". Now "v3" merges the three:
    /// migrator.registerMigration("v3", merging: ["v1", "v2"]) { db, appliedIDs in
    ///     if !appliedIDs.contains("v1") {
    ///         try db.create(table: "player") { ... }
    ///     }
    ///     if !appliedIDs.contains("v2") {
    ///         try db.alter(table: "player") { ... }
    ///     }
    ///     // What "v3" did
    /// }
    /// ```
    ///
    /// Name the merged migration like the last of those it replaces, or give it a new
    /// name; not like one of the others, which would then run twice. Registering two
    /// migrations with the same identifier is a fatal error.
    public mutating func registerMigration(
        _ identifier: String,
        foreignKeyChecks: ForeignKeyChecks = .deferred,
        merging mergedIdentifiers: Set<String> = [],
        migrate: @escaping @Sendable (_ db: Database, _ appliedIdentifiers: Set<String>) throws -> Void
    ) {
        guard !registered.contains(where: { $0.identifier == identifier }) else {
            fatalError("The migration \"\(identifier)\" is registered twice. Give each migration its own identifier.")
        }
        registered.append(
            Migration(
                identifier: identifier, mergedIdentifiers: mergedIdentifiers.subtracting([identifier]),
                foreignKeyChecks: foreignKeyChecks, checksDeferredForeignKeys: defersForeignKeyChecks, migrate: migrate))
    }

    /// A migrator whose migrations registered from now on do not check foreign keys at the
    /// end when they run with deferred checks: the application is responsible for them
    /// (see `Database.checkForeignKeys()`).
    public func disablingDeferredForeignKeyChecks() -> DatabaseMigrator {
        var migrator = self
        migrator.defersForeignKeyChecks = false
        return migrator
    }

    // MARK: - Migrating

    /// Runs the migrations that were not applied yet, in order, while no read can run.
    public func migrate(_ writer: some DatabaseWriter) throws {
        guard let last = registered.last else { return }
        try migrate(writer, upTo: last.identifier)
    }

    /// Runs the migrations that were not applied yet, up to and including `target`.
    ///
    /// An unknown target, or a database already migrated beyond the target, is a fatal
    /// error: migrations only run forward.
    public func migrate(_ writer: some DatabaseWriter, upTo target: String) throws {
        try writer.barrierWriteWithoutTransaction { db in
            try erasingIfNeededMigrate(db, upTo: target)
        }
    }

    /// Schedules the migrations that were not applied yet, and returns at once:
    /// `completion` gets the connection once they ran (in the same access, before any
    /// write scheduled after this call), or the error that stopped them.
    public func asyncMigrate(_ writer: any DatabaseWriter, completion: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        let migrator = self
        writer.asyncWriteWithoutTransaction { db in
            do {
                if let last = migrator.registered.last {
                    try migrator.erasingIfNeededMigrate(db, upTo: last.identifier)
                }
                completion(.success(db))
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// Runs the migrations that were not applied yet, asynchronously.
    public func migrate(_ writer: some DatabaseWriter) async throws {
        let migrator = self
        try await writer.writeWithoutTransaction { db in
            guard let last = migrator.registered.last else { return }
            try migrator.erasingIfNeededMigrate(db, upTo: last.identifier)
        }
    }

    /// Erases the database first when `eraseDatabaseOnSchemaChange` finds that it must.
    private func erasingIfNeededMigrate(_ db: Database, upTo target: String) throws {
        if eraseDatabaseOnSchemaChange, try needsErasing(db) {
            try Self.erase(db)
        }
        try migrate(db, upTo: target)
    }

    private func migrate(_ db: Database, upTo target: String) throws {
        guard let targetIndex = registered.firstIndex(where: { $0.identifier == target }) else {
            fatalError("Undefined migration: \"\(target)\". Register it before you migrate up to it.")
        }
        let applied = try appliedIdentifiers(db)
        if let beyond = registered[(targetIndex + 1)...].first(where: { applied.contains($0.identifier) }) {
            fatalError(
                """
                The database is already migrated beyond migration "\(target)" \
                (migration "\(beyond.identifier)" was applied). Migrations only run forward.
                """)
        }
        try createMigrationsTable(db)
        for migration in registered[...targetIndex] {
            if !applied.contains(migration.identifier) {
                try run(migration, in: db, appliedMerged: migration.mergedIdentifiers.intersection(applied))
            } else if !migration.mergedIdentifiers.isDisjoint(with: applied) {
                // Applied under its own name before the others were merged into it.
                try forgetMerged(of: migration, in: db)
            }
        }
    }

    private func run(_ migration: Migration, in db: Database, appliedMerged: Set<String>) throws {
        // Migrations read the schema as SQLite knows it, whatever the application's schema
        // source says: what a migration does must not change with the app's later code.
        try db.withSchemaSource(nil) {
            let foreignKeysAreOn = try (Int.fetchOne(db, sql: "PRAGMA foreign_keys") ?? 0) != 0
            let disablesForeignKeys = migration.foreignKeyChecks == .deferred && foreignKeysAreOn
            if disablesForeignKeys { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
            defer { if disablesForeignKeys { try? db.execute(sql: "PRAGMA foreign_keys = ON") } }
            try db.inTransaction(.immediate) {
                try migration.migrate(db, appliedMerged)
                if disablesForeignKeys && migration.checksDeferredForeignKeys {
                    try db.checkForeignKeys()
                }
                try forgetMerged(of: migration, in: db)
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [migration.identifier])
                return .commit
            }
        }
    }

    private func forgetMerged(of migration: Migration, in db: Database) throws {
        guard !migration.mergedIdentifiers.isEmpty else { return }
        try db.execute(literal: "DELETE FROM grdb_migrations WHERE identifier IN \(migration.mergedIdentifiers.sorted())")
    }

    private func createMigrationsTable(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
    }

    // MARK: - Querying

    /// The identifiers in the database's table of applied migrations, registered here or
    /// not.
    public func appliedIdentifiers(_ db: Database) throws -> Set<String> {
        guard try db.tableExists("grdb_migrations") else { return [] }
        return try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations")
    }

    /// The registered migrations that were applied, in registration order.
    public func appliedMigrations(_ db: Database) throws -> [String] {
        let applied = try appliedIdentifiers(db)
        return migrations.filter { applied.contains($0) }
    }

    /// The registered migrations that were applied, up to the first one that was not.
    public func completedMigrations(_ db: Database) throws -> [String] {
        let applied = try appliedIdentifiers(db)
        return Array(migrations.prefix { applied.contains($0) })
    }

    /// Whether every registered migration was applied.
    public func hasCompletedMigrations(_ db: Database) throws -> Bool {
        try completedMigrations(db).count == registered.count
    }

    /// Whether the database was migrated by migrations this migrator does not know (a
    /// newer version of the application).
    public func hasBeenSuperseded(_ db: Database) throws -> Bool {
        let known = Set(migrations)
        return try appliedIdentifiers(db).contains { !known.contains($0) }
    }

    /// Whether the schema differs from the one that the applied migrations make, run on an
    /// empty database, or a migration applied to the database is no longer registered.
    public func hasSchemaChanges(_ db: Database) throws -> Bool {
        let applied = try appliedIdentifiers(db)
        guard applied.isSubset(of: Set(migrations)) else { return true }
        guard let lastApplied = registered.last(where: { applied.contains($0.identifier) }) else { return false }
        // The application's configuration: migrations may use its functions and collations.
        var configuration = db.configuration
        configuration.readonly = false
        configuration.label = "Ripple.DatabaseMigrator.reference"
        configuration.targetQueue = nil
        configuration.writeTargetQueue = nil
        configuration.logsChangedTables = false
        configuration.journalMode = .default
        configuration.observesExternalChanges = false
        // On disk, as GRDB's: migrations may hold much data, and a `prepareDatabase` may
        // ask for what an in-memory database has not (`sqlite3_file_control`).
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-migrator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let expected: [String]
        do {
            let reference = try DatabaseQueue(path: directory.appendingPathComponent("reference.sqlite").path, configuration: configuration)
            var migrator = self
            migrator.eraseDatabaseOnSchemaChange = false
            try migrator.migrate(reference, upTo: lastApplied.identifier)
            expected = try reference.read { try Self.schema($0) }
            try reference.close()
        }
        return try Self.schema(db) != expected
    }

    private func needsErasing(_ db: Database) throws -> Bool {
        try hasSchemaChanges(db)
    }

    /// The definitions of the schema's objects, sorted.
    private static func schema(_ db: Database) throws -> [String] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT type, name, tbl_name, sql FROM sqlite_master
                WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND \(RippleTables.excludedFromSchemaSQL)
                ORDER BY type, name
                """
        ).map { "\($0)" }
    }

    /// Drops every table, view, index and trigger.
    private static func erase(_ db: Database) throws {
        let foreignKeysWereOn = try (Int.fetchOne(db, sql: "PRAGMA foreign_keys") ?? 0) != 0
        if foreignKeysWereOn { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
        defer { if foreignKeysWereOn { try? db.execute(sql: "PRAGMA foreign_keys = ON") } }
        try db.inTransaction {
            let objects = try Row.fetchAll(
                db,
                sql: """
                    SELECT type, name FROM sqlite_master
                    WHERE type IN ('view', 'table') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND \(RippleTables.excludedFromSchemaSQL)
                    ORDER BY type = 'table'
                    """)
            for object in objects {
                let type: String = try object.decode(forColumn: "type")
                let name: String = try object.decode(forColumn: "name")
                try db.execute(sql: "DROP \(type == "view" ? "VIEW" : "TABLE") IF EXISTS \(name.quotedDatabaseIdentifier)")
            }
            return .commit
        }
    }
}
