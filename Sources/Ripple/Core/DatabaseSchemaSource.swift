/// A schema of a connection: `main`, `temp`, or an attached database.
public struct DatabaseSchemaID: Hashable, Sendable {
    /// The schema name: `main`, `temp`, or the name the database was attached with.
    public let name: String

    private init(name: String) {
        self.name = name
    }

    public static let main = DatabaseSchemaID(name: "main")
    public static let temp = DatabaseSchemaID(name: "temp")

    /// An attached database.
    public static func attached(_ name: String) -> DatabaseSchemaID { DatabaseSchemaID(name: name) }

    /// The table that describes the schema.
    public var schemaTableName: String {
        switch name {
        case "main": return "sqlite_master"
        case "temp": return "sqlite_temp_master"
        default: return "\(name.quotedDatabaseIdentifier).sqlite_master"
        }
    }
}

extension Database {
    /// The schema source that tells what the schema does not say: the configuration's
    /// (``Configuration/schemaSource``), or the one ``withSchemaSource(_:execute:)`` sets.
    /// Nil while a migration runs, so that migrations read the schema as SQLite knows it.
    public internal(set) var schemaSource: (any DatabaseSchemaSource)? {
        get { state.value.schemaSource }
        set { state.value.schemaSource = newValue }
    }

    /// Runs `block` with `schemaSource` in use, instead of the current one. What the
    /// connection knew of the schema is forgotten before and after, so that each source's
    /// answers stay with it.
    ///
    /// ```swift
    /// try db.withSchemaSource(ViewKeys()) {
    ///     try db.primaryKey("playerView")
    /// }
    /// ```
    public func withSchemaSource<T>(_ schemaSource: (any DatabaseSchemaSource)?, execute block: () throws -> T) rethrows -> T {
        let previous = self.schemaSource
        self.schemaSource = schemaSource
        clearSchemaCache()
        defer {
            self.schemaSource = previous
            clearSchemaCache()
        }
        return try block()
    }
}

/// A table, view, index or trigger, by name and schema.
public struct DatabaseObjectID: Hashable, Sendable {
    public var name: String
    public var schemaID: DatabaseSchemaID

    public init(name: String, schemaID: DatabaseSchemaID) {
        self.name = name
        self.schemaID = schemaID
    }
}

/// What the schema does not say, told by the application: the primary key of a view, so
/// that records of a view can be found by key (`Player.find(db, key: 1)` on a view).
///
/// ```swift
/// struct ViewKeys: DatabaseSchemaSource {
///     func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
///         view.name == "playerView" ? ["id"] : nil
///     }
/// }
/// var config = Configuration()
/// config.schemaSource = ViewKeys()
/// ```
public protocol DatabaseSchemaSource: Sendable {
    /// The primary key columns of `view`, or nil when this source does not know.
    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]?
}

extension DatabaseSchemaSource {
    public func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? { nil }

    /// This source, then `other` for what this one does not know.
    public func then(_ other: some DatabaseSchemaSource) -> some DatabaseSchemaSource {
        ChainedSchemaSource(first: self, second: other)
    }
}

/// Two sources, the first one asked first; their answers are never merged.
struct ChainedSchemaSource<First: DatabaseSchemaSource, Second: DatabaseSchemaSource>: DatabaseSchemaSource {
    let first: First
    let second: Second

    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        try first.columnsForPrimaryKey(db, inView: view) ?? second.columnsForPrimaryKey(db, inView: view)
    }
}
