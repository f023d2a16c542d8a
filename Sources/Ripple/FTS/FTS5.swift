/// The FTS5 full-text search module, for `Database.create(virtualTable:using:)`.
///
/// ```swift
/// try db.create(virtualTable: "document", using: FTS5()) { t in
///     t.tokenizer = .porter(wrapping: .unicode61())
///     t.column("content")
/// }
/// ```
///
/// See <https://www.sqlite.org/fts5.html>.
public struct FTS5: Sendable {
    /// How the `unicode61` tokenizer treats diacritics.
    public enum Diacritics: Sendable {
        /// Diacritics are kept: "e" does not match "é".
        case keep
        /// Diacritics are removed from latin script characters, as SQLite did before 3.27.
        case removeLegacy
        /// Diacritics are removed from all characters (`remove_diacritics 2`).
        case remove
    }

    /// Creates the FTS5 module.
    public init() {}

    /// The tokens of a query, for the initializers of ``FTS5Pattern``.
    static func tokenize(query string: String) throws -> [String] {
        // FTS5's `ascii` tokenizer and FTS3's `simple` one cut the same tokens: runs of
        // ASCII letters and digits and non-ASCII characters, ASCII folded to lower case.
        try FTS3.tokenize(string, withTokenizer: .simple)
    }
}

extension FTS5: VirtualTableModule {
    /// `fts5`.
    public var moduleName: String { "fts5" }

    /// A fresh table definition.
    ///
    /// - parameter configuration: how the table is created.
    public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS5TableDefinition {
        FTS5TableDefinition(configuration: configuration)
    }

    /// The columns, then the options of the definition.
    ///
    /// An FTS5 table needs a column: a definition without any is a programmer error.
    ///
    /// - parameter definition: the table definition.
    /// - parameter db: the connection that creates the table.
    public func moduleArguments(for definition: FTS5TableDefinition, in db: Database) throws -> [String] {
        precondition(
            !definition.columns.isEmpty,
            "FTS5 virtual table requires at least one column: call t.column(_:) in the body of create(virtualTable:using:).")
        var arguments = definition.columns.map { $0.isIndexed ? $0.name : "\($0.name) UNINDEXED" }
        if let tokenizer = definition.tokenizer {
            let components = tokenizer.components.map(\.sqlStringLiteral).joined(separator: " ")
            arguments.append("tokenize=" + components.sqlStringLiteral)
        }
        if let contentTable = definition.synchronizedTable {
            arguments.append("content=" + contentTable.sqlStringLiteral)
            if let rowID = try db.visibleRowIDColumn(contentTable) {
                arguments.append("content_rowid=" + rowID.sqlStringLiteral)
            }
        } else {
            if let content = definition.content { arguments.append("content=" + content.sqlStringLiteral) }
            if let rowID = definition.contentRowID { arguments.append("content_rowid=" + rowID.sqlStringLiteral) }
        }
        if let prefixes = definition.prefixes {
            arguments.append("prefix=" + prefixes.sorted().map(String.init).joined(separator: " ").sqlStringLiteral)
        }
        if let columnSize = definition.columnSize { arguments.append("columnSize=\(columnSize)") }
        if let detail = definition.detail { arguments.append("detail=\(detail)") }
        return arguments
    }

    /// Creates the triggers that keep the table synchronized with its content table, if
    /// any, and fills the index.
    ///
    /// - parameter db: the connection that created the table.
    /// - parameter tableName: the name of the new table.
    /// - parameter definition: the table definition.
    public func database(_ db: Database, didCreate tableName: String, using definition: FTS5TableDefinition) throws {
        guard let contentTable = definition.synchronizedTable else { return }
        // https://sqlite.org/fts5.html#external_content_tables
        // SQLite cannot rebuild the index of a temporary external content table.
        precondition(
            !definition.configuration.temporary,
            "Temporary external content FTS5 tables are not supported: remove the .temporary option, or synchronize(withTable:).")
        let rowID = try db.visibleRowIDColumn(contentTable) ?? Column.rowID.name
        let columns = definition.columns.map(\.name)
        let fts = tableName.quotedDatabaseIdentifier
        let ftsColumns = (["rowid"] + columns).map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let newValues = ([rowID] + columns).map { "new." + $0.quotedDatabaseIdentifier }.joined(separator: ", ")
        let oldValues = ([rowID] + columns).map { "old." + $0.quotedDatabaseIdentifier }.joined(separator: ", ")
        let trigger = FTSSynchronizationTriggers(tableName: tableName, ifNotExists: definition.configuration.ifNotExists)
        try trigger.create(
            "ai", "AFTER INSERT", on: contentTable,
            body: [
                "INSERT INTO \(fts)(\(ftsColumns)) VALUES (\(newValues))"
            ], in: db)
        try trigger.create(
            "ad", "AFTER DELETE", on: contentTable,
            body: [
                "INSERT INTO \(fts)(\(fts), \(ftsColumns)) VALUES('delete', \(oldValues))"
            ], in: db)
        try trigger.create(
            "au", "AFTER UPDATE", on: contentTable,
            body: [
                "INSERT INTO \(fts)(\(fts), \(ftsColumns)) VALUES('delete', \(oldValues))",
                "INSERT INTO \(fts)(\(ftsColumns)) VALUES (\(newValues))",
            ], in: db)
        try db.execute(sql: "INSERT INTO \(fts)(\(fts)) VALUES('rebuild')")
    }
}

/// The definition of an FTS5 table, configured in the body of
/// `Database.create(virtualTable:using:_:)`.
public final class FTS5TableDefinition {
    fileprivate let configuration: VirtualTableConfiguration
    fileprivate var columns: [FTS5ColumnDefinition] = []
    /// The content table that triggers keep the index synchronized with.
    fileprivate var synchronizedTable: String?
    private var rawContent: String?
    private var rawContentRowID: String?

    /// The tokenizer (nil: SQLite's default, `unicode61`).
    public var tokenizer: FTS5TokenizerDescriptor?

    /// The `content` option: the table that holds the content (`""`: a contentless
    /// table). Setting it stops a synchronization set by `synchronize(withTable:)`.
    public var content: String? {
        get { synchronizedTable ?? rawContent }
        set {
            stopSynchronization()
            rawContent = newValue
        }
    }

    /// The `content_rowid` option: the rowid column of the content table. Setting it stops
    /// a synchronization set by `synchronize(withTable:)`.
    public var contentRowID: String? {
        get { synchronizedTable == nil ? rawContentRowID : nil }
        set {
            stopSynchronization()
            rawContentRowID = newValue
        }
    }

    /// The `prefix` option: the lengths of the prefix indexes.
    public var prefixes: Set<Int>?

    /// The `columnsize` option: 0 stores no column sizes.
    public var columnSize: Int?

    /// The `detail` option: `full`, `column` or `none`.
    public var detail: String?

    init(configuration: VirtualTableConfiguration) {
        self.configuration = configuration
    }

    /// Appends a column.
    ///
    /// - parameter name: the column name.
    /// - returns: the column definition, for `notIndexed()`.
    @discardableResult
    public func column(_ name: String) -> FTS5ColumnDefinition {
        let column = FTS5ColumnDefinition(name: name)
        columns.append(column)
        return column
    }

    /// Makes the table an external content table of `tableName`, which triggers keep in
    /// sync; the index is filled with the rows the table already has.
    ///
    /// - parameter tableName: the content table.
    public func synchronize(withTable tableName: String) {
        rawContent = nil
        rawContentRowID = nil
        synchronizedTable = tableName
    }

    private func stopSynchronization() {
        if synchronizedTable != nil {
            synchronizedTable = nil
            rawContent = nil
            rawContentRowID = nil
        }
    }
}

// A mutable class, configured by one thread in the body of create(virtualTable:).
@available(*, unavailable)
extension FTS5TableDefinition: Sendable {}

/// A column of an FTS5 table.
public final class FTS5ColumnDefinition {
    fileprivate let name: String
    fileprivate var isIndexed = true

    init(name: String) {
        self.name = name
    }

    /// Excludes the column from the index (`UNINDEXED`).
    ///
    /// - returns: the column definition.
    @discardableResult
    public func notIndexed() -> Self {
        isIndexed = false
        return self
    }
}

// A mutable class, configured by one thread in the body of create(virtualTable:).
@available(*, unavailable)
extension FTS5ColumnDefinition: Sendable {}

extension Column {
    /// The hidden `rank` column of FTS5 tables: `Document.matching(pattern).order(Column.rank)`
    /// sorts the best matches first.
    public static let rank = Column("rank")
}

extension Database {
    /// Drops the triggers that `synchronize(withTable:)` of an FTS5 table created.
    ///
    /// - parameter tableName: the name of the FTS5 table.
    public func dropFTS5SynchronizationTriggers(forTable tableName: String) throws {
        try FTSSynchronizationTriggers.dropTriggers(["ai", "ad", "au"], ofTable: tableName, in: self)
    }
}

extension String {
    /// The string as an SQL string literal: `'it''s'`.
    var sqlStringLiteral: String { sqlQuoted(by: UInt8(ascii: "'")) }
}
