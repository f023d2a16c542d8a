extension Database {
    /// The declared type of a column: `.text`, `.integer`, `.double`, `.datetime`...
    ///
    /// SQLite stores any value in any column (unless the table is `STRICT`); the type gives
    /// the column its affinity.
    public struct ColumnType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let text = ColumnType(rawValue: "TEXT")
        public static let integer = ColumnType(rawValue: "INTEGER")
        public static let double = ColumnType(rawValue: "DOUBLE")
        public static let real = ColumnType(rawValue: "REAL")
        public static let numeric = ColumnType(rawValue: "NUMERIC")
        public static let boolean = ColumnType(rawValue: "BOOLEAN")
        public static let blob = ColumnType(rawValue: "BLOB")
        public static let date = ColumnType(rawValue: "DATE")
        public static let datetime = ColumnType(rawValue: "DATETIME")
        public static let any = ColumnType(rawValue: "ANY")
        /// JSON stored as text: the type of nested `Codable` values of records. It is SQL's
        /// `TEXT`, as in GRDB; the name says the intent.
        public static let jsonText = ColumnType(rawValue: "TEXT")
        /// JSON stored as text, or binary JSON (JSONB).
        public static let json = ColumnType(rawValue: "JSON")
    }

    /// An SQLite conflict resolution (`ON CONFLICT ...`).
    public enum ConflictResolution: String, Sendable {
        case rollback = "ROLLBACK"
        case abort = "ABORT"
        case fail = "FAIL"
        case ignore = "IGNORE"
        case replace = "REPLACE"
    }

    /// What a foreign key does when its parent row is deleted or updated.
    public enum ForeignKeyAction: String, Sendable {
        case cascade = "CASCADE"
        case restrict = "RESTRICT"
        case setNull = "SET NULL"
        case setDefault = "SET DEFAULT"
    }

    /// A collation: how text compares.
    public struct CollationName: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let binary = CollationName(rawValue: "BINARY")
        public static let nocase = CollationName(rawValue: "NOCASE")
        public static let rtrim = CollationName(rawValue: "RTRIM")
    }
}

/// Options of `Database.create(table:options:body:)`.
public struct TableOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `CREATE TABLE IF NOT EXISTS`.
    public static let ifNotExists = TableOptions(rawValue: 1 << 0)
    /// `CREATE TEMPORARY TABLE`.
    public static let temporary = TableOptions(rawValue: 1 << 1)
    /// `WITHOUT ROWID`.
    public static let withoutRowID = TableOptions(rawValue: 1 << 2)
    /// `STRICT` (SQLite 3.37+).
    public static let strict = TableOptions(rawValue: 1 << 3)
}

/// Options of `Database.create(index:on:columns:options:condition:)`.
public struct IndexOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `CREATE INDEX IF NOT EXISTS`.
    public static let ifNotExists = IndexOptions(rawValue: 1 << 0)
    /// `CREATE UNIQUE INDEX`.
    public static let unique = IndexOptions(rawValue: 1 << 1)
}

/// Options of `Database.create(view:options:columns:as:)`.
public struct ViewOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `CREATE VIEW IF NOT EXISTS`.
    public static let ifNotExists = ViewOptions(rawValue: 1 << 0)
    /// `CREATE TEMPORARY VIEW`.
    public static let temporary = ViewOptions(rawValue: 1 << 1)
}
