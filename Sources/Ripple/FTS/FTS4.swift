/// The FTS4 full-text search module, for `Database.create(virtualTable:using:)`.
///
/// ```swift
/// try db.create(virtualTable: "document", using: FTS4()) { t in
///     t.tokenizer = .unicode61()
///     t.column("content")
/// }
/// ```
///
/// See <https://www.sqlite.org/fts3.html>.
public struct FTS4: Sendable {
    /// Creates the FTS4 module.
    public init() {}
}

extension FTS4: VirtualTableModule {
    /// `fts4`.
    public var moduleName: String { "fts4" }

    /// A fresh table definition.
    ///
    /// - parameter configuration: how the table is created.
    public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS4TableDefinition {
        FTS4TableDefinition(configuration: configuration)
    }

    /// The columns, then the options of the definition.
    ///
    /// - parameter definition: the table definition.
    /// - parameter db: the connection that creates the table.
    public func moduleArguments(for definition: FTS4TableDefinition, in db: Database) -> [String] {
        var arguments: [String] = []
        for column in definition.columns {
            if column.isLanguageID {
                arguments.append("languageid=\"\(column.name)\"")
            } else {
                arguments.append(column.name)
                if !column.isIndexed { arguments.append("notindexed=\(column.name)") }
            }
        }
        if let tokenizer = definition.tokenizer {
            arguments.append(tokenizer.tokenizeArgument)
        }
        if let content = definition.content { arguments.append("content=\"\(content)\"") }
        if let compress = definition.compress { arguments.append("compress=\"\(compress)\"") }
        if let uncompress = definition.uncompress { arguments.append("uncompress=\"\(uncompress)\"") }
        if let matchinfo = definition.matchinfo { arguments.append("matchinfo=\"\(matchinfo)\"") }
        if let prefixes = definition.prefixes {
            arguments.append("prefix=\"\(prefixes.sorted().map(String.init).joined(separator: ","))\"")
        }
        return arguments
    }

    /// Creates the triggers that keep the table synchronized with its content table, if
    /// any, and fills the index.
    ///
    /// - parameter db: the connection that created the table.
    /// - parameter tableName: the name of the new table.
    /// - parameter definition: the table definition.
    public func database(_ db: Database, didCreate tableName: String, using definition: FTS4TableDefinition) throws {
        guard let contentTable = definition.synchronizedTable else { return }
        // https://www.sqlite.org/fts3.html#_external_content_fts4_tables_
        // SQLite cannot rebuild the index of a temporary external content table.
        precondition(
            !definition.configuration.temporary,
            "Temporary external content FTS4 tables are not supported: remove the .temporary option, or synchronize(withTable:).")
        let rowID = try db.visibleRowIDColumn(contentTable) ?? Column.rowID.name
        let columns = definition.columns.map(\.name)
        let fts = tableName.quotedDatabaseIdentifier
        let ftsColumns = (["docid"] + columns).map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let newValues = ([rowID] + columns).map { "new." + $0.quotedDatabaseIdentifier }.joined(separator: ", ")
        let oldRowID = "old." + rowID.quotedDatabaseIdentifier
        let trigger = FTSSynchronizationTriggers(tableName: tableName, ifNotExists: definition.configuration.ifNotExists)
        try trigger.create(
            "bu", "BEFORE UPDATE", on: contentTable,
            body: [
                "DELETE FROM \(fts) WHERE docid=\(oldRowID)"
            ], in: db)
        try trigger.create(
            "bd", "BEFORE DELETE", on: contentTable,
            body: [
                "DELETE FROM \(fts) WHERE docid=\(oldRowID)"
            ], in: db)
        try trigger.create(
            "au", "AFTER UPDATE", on: contentTable,
            body: [
                "INSERT INTO \(fts)(\(ftsColumns)) VALUES(\(newValues))"
            ], in: db)
        try trigger.create(
            "ai", "AFTER INSERT", on: contentTable,
            body: [
                "INSERT INTO \(fts)(\(ftsColumns)) VALUES(\(newValues))"
            ], in: db)
        try db.execute(sql: "INSERT INTO \(fts)(\(fts)) VALUES('rebuild')")
    }
}

/// The definition of an FTS4 table, configured in the body of
/// `Database.create(virtualTable:using:_:)`.
public final class FTS4TableDefinition {
    fileprivate let configuration: VirtualTableConfiguration
    fileprivate var columns: [FTS4ColumnDefinition] = []
    /// The content table that triggers keep the index synchronized with.
    fileprivate var synchronizedTable: String?
    private var rawContent: String?

    /// The tokenizer (nil: SQLite's default, `simple`).
    public var tokenizer: FTS3TokenizerDescriptor?

    /// The `content` option: the table that holds the content (`""`: a contentless
    /// table). Setting it stops a synchronization set by `synchronize(withTable:)`.
    public var content: String? {
        get { synchronizedTable ?? rawContent }
        set {
            synchronizedTable = nil
            rawContent = newValue
        }
    }

    /// The `compress` option: the SQL function that compresses content.
    public var compress: String?

    /// The `uncompress` option: the SQL function that uncompresses content.
    public var uncompress: String?

    /// The `matchinfo` option: `"fts3"` makes smaller matchinfo tables.
    public var matchinfo: String?

    /// The `prefix` option: the lengths of the prefix indexes.
    public var prefixes: Set<Int>?

    init(configuration: VirtualTableConfiguration) {
        self.configuration = configuration
    }

    /// Appends a column.
    ///
    /// - parameter name: the column name.
    /// - returns: the column definition, for `notIndexed()` or `asLanguageId()`.
    @discardableResult
    public func column(_ name: String) -> FTS4ColumnDefinition {
        let column = FTS4ColumnDefinition(name: name)
        columns.append(column)
        return column
    }

    /// Makes the table an external content table of `tableName`, which triggers keep in
    /// sync; the index is filled with the rows the table already has.
    ///
    /// - parameter tableName: the content table.
    public func synchronize(withTable tableName: String) {
        rawContent = nil
        synchronizedTable = tableName
    }
}

// A mutable class, configured by one thread in the body of create(virtualTable:).
@available(*, unavailable)
extension FTS4TableDefinition: Sendable {}

/// A column of an FTS4 table.
public final class FTS4ColumnDefinition {
    fileprivate let name: String
    fileprivate var isIndexed = true
    fileprivate var isLanguageID = false

    init(name: String) {
        self.name = name
    }

    /// Excludes the column from the index (the `notindexed` option).
    ///
    /// - returns: the column definition.
    @discardableResult
    public func notIndexed() -> Self {
        isIndexed = false
        return self
    }

    /// Makes the column the language id of rows (the `languageid` option).
    ///
    /// - returns: the column definition.
    @discardableResult
    public func asLanguageId() -> Self {
        isLanguageID = true
        return self
    }
}

// A mutable class, configured by one thread in the body of create(virtualTable:).
@available(*, unavailable)
extension FTS4ColumnDefinition: Sendable {}

extension Database {
    /// Drops the triggers that `synchronize(withTable:)` of an FTS4 table created.
    ///
    /// - parameter tableName: the name of the FTS4 table.
    public func dropFTS4SynchronizationTriggers(forTable tableName: String) throws {
        try FTSSynchronizationTriggers.dropTriggers(["bu", "bd", "au", "ai"], ofTable: tableName, in: self)
    }
}
