extension Database {
    /// Prints the rows of every statement of `sql`.
    ///
    /// ```swift
    /// try dbQueue.read { db in
    ///     // 1|Arthur|500
    ///     // 2|Barbara|1000
    ///     try db.dumpSQL("SELECT * FROM player ORDER BY id")
    /// }
    /// ```
    ///
    /// The statements run as ``execute(literal:)`` would run them: one that writes
    /// changes the database, in a write access.
    ///
    /// - Parameters:
    ///   - sql: The statements.
    ///   - format: The output format.
    ///   - stream: Where to print; the standard output by default.
    public func dumpSQL(
        _ sql: SQL,
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil
    ) throws {
        var stream = DumpStream(stream)
        try forEachStatement(sql: sql.sql, arguments: sql.arguments) { statement in
            try dumpRows(of: statement, arguments: nil, format: format, to: &stream)
        }
    }

    /// Prints the rows of a request.
    ///
    /// ```swift
    /// try dbQueue.read { db in
    ///     // 1|Arthur|500
    ///     // 2|Barbara|1000
    ///     try db.dumpRequest(Player.order(Column("id")))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - format: The output format.
    ///   - stream: Where to print; the standard output by default.
    public func dumpRequest(
        _ request: some FetchRequest,
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil
    ) throws {
        var stream = DumpStream(stream)
        let prepared = try request.makePreparedRequest(self, forSingleResult: false)
        try dumpRows(of: prepared.statement, arguments: prepared.arguments, format: format, to: &stream)
    }

    /// Prints the rows of tables and views, each one after its name when there are several.
    ///
    /// ```swift
    /// try dbQueue.read { db in
    ///     // player
    ///     // 1|Arthur|500
    ///     // 2|Barbara|1000
    ///     //
    ///     // team
    ///     // 1|Red
    ///     // 2|Blue
    ///     try db.dumpTables(["player", "team"])
    /// }
    /// ```
    ///
    /// The rows of a table are sorted by primary key. The rows of a view come in the
    /// view's order, or, with `stableOrder`, sorted by all columns, for an output that
    /// tests can compare. All are read in one transaction; nothing is written.
    ///
    /// - Parameters:
    ///   - tables: The names of the tables and views. One that does not exist throws a
    ///     ``DatabaseError``.
    ///   - format: The output format.
    ///   - tableHeader: When the names are printed.
    ///   - stableOrder: Whether the rows of views are sorted.
    ///   - stream: Where to print; the standard output by default.
    public func dumpTables(
        _ tables: [String],
        format: some DumpFormat = .debug(),
        tableHeader: DumpTableHeaderOptions = .automatic,
        stableOrder: Bool = false,
        to stream: (any TextOutputStream)? = nil
    ) throws {
        var stream = DumpStream(stream)
        try inDumpTransaction {
            try dumpTables(tables, format: format, tableHeader: tableHeader, stableOrder: stableOrder, to: &stream)
        }
    }

    /// Prints the schema, then the rows of each table, sorted by primary key.
    ///
    /// ```swift
    /// try dbQueue.read { db in
    ///     try db.dumpContent()
    /// }
    /// // sqlite_master
    /// // CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
    /// //
    /// // player
    /// // 1|Arthur|500
    /// // 2|Barbara|1000
    /// ```
    ///
    /// The objects of SQLite (`sqlite_`), of migrations (`grdb_migrations`), of Ripple
    /// itself (`_ripple_`), and the shadow tables of virtual tables are left out. All is
    /// read in one transaction; nothing is written.
    ///
    /// - Parameters:
    ///   - format: The output format of rows.
    ///   - stream: Where to print; the standard output by default.
    public func dumpContent(
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil
    ) throws {
        var stream = DumpStream(stream)
        try inDumpTransaction {
            try dumpSchema(to: &stream)
            stream.margin()
            let tables = try String.fetchAll(self, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name COLLATE NOCASE")
            let hidden = try DumpedSchemaObjects(self)
            try dumpTables(
                tables.filter { !hidden.hides(name: $0, table: $0) },
                format: format, tableHeader: .always, stableOrder: true, to: &stream)
        }
    }

    /// Prints the schema: the SQL of tables, indexes, views and triggers, grouped by table.
    ///
    /// ```swift
    /// try dbQueue.read { db in
    ///     try db.dumpSchema()
    /// }
    /// // sqlite_master
    /// // CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
    /// ```
    ///
    /// The objects of SQLite (`sqlite_`), of migrations (`grdb_migrations`), of Ripple
    /// itself (`_ripple_`), and the shadow tables of virtual tables are left out.
    ///
    /// - Parameter stream: Where to print; the standard output by default.
    public func dumpSchema(to stream: (any TextOutputStream)? = nil) throws {
        var stream = DumpStream(stream)
        try inDumpTransaction { try dumpSchema(to: &stream) }
    }
}

/// When ``Database/dumpTables(_:format:tableHeader:stableOrder:to:)`` prints the names of
/// tables.
public enum DumpTableHeaderOptions: Sendable {
    /// Names are printed when there are several tables.
    case automatic

    /// Names are always printed.
    case always
}

// MARK: - Implementation

extension Database {
    /// Runs `body` with no write allowed, in a transaction (the running one, or one of its
    /// own), so that a dump shows one state of the database.
    private func inDumpTransaction(_ body: () throws -> Void) throws {
        try readOnly {
            if isInsideTransaction {
                try body()
            } else {
                try inCommittedTransaction(.deferred, body)
            }
        }
    }

    /// Prints the rows of `statement`, with a fresh copy of `format`.
    private func dumpRows(
        of statement: Statement,
        arguments: StatementArguments?,
        format: some DumpFormat,
        to stream: inout DumpStream
    ) throws {
        var format = format
        let cursor = try Row.fetchCursor(statement, arguments: arguments)
        while try cursor.next() != nil {
            try format.writeRow(self, statement: statement, to: &stream)
        }
        format.finalize(self, statement: statement, to: &stream)
    }

    private func dumpTables(
        _ tables: [String],
        format: some DumpFormat,
        tableHeader: DumpTableHeaderOptions,
        stableOrder: Bool,
        to stream: inout DumpStream
    ) throws {
        let printsNames = tableHeader == .always || tables.count > 1
        for (index, table) in tables.enumerated() {
            if index > 0 { stream.write("\n") }
            if printsNames { stream.writeLine(table) }
            let statement = try makeStatement(sql: dumpQuery(ofTable: table, stableOrder: stableOrder))
            try dumpRows(of: statement, arguments: nil, format: format, to: &stream)
        }
    }

    /// The query of the rows of a table, by primary key, or of a view.
    private func dumpQuery(ofTable table: String, stableOrder: Bool) throws -> String {
        let select = "SELECT * FROM \(table.quotedDatabaseIdentifier)"
        if try tableExists(table) {
            let primaryKey = try primaryKey(table).columns
            return select + " ORDER BY " + primaryKey.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        }
        // A view has no primary key: all its columns make the order.
        let columnCount = stableOrder ? try makeStatement(sql: select).columnCount : 0
        guard columnCount > 0 else { return select }
        return select + " ORDER BY " + (1...columnCount).map(String.init).joined(separator: ", ")
    }

    private func dumpSchema(to stream: inout DumpStream) throws {
        stream.writeLine("sqlite_master")
        // Grouped by table, each group with the table first, then its indexes, then
        // the others (triggers, then views) by type and name.
        let objects = try Row.fetchAll(
            self,
            sql: """
                SELECT sql, name, tbl_name FROM sqlite_master
                WHERE sql IS NOT NULL
                ORDER BY tbl_name COLLATE NOCASE, type <> 'table', type <> 'index', type, name COLLATE NOCASE, sql
                """)
        let hidden = try DumpedSchemaObjects(self)
        for object in objects where !hidden.hides(name: try object.decode(atIndex: 1), table: try object.decode(atIndex: 2)) {
            stream.writeLine(try object.decode(String.self, atIndex: 0) + ";")
        }
    }
}

/// Which schema objects a dump leaves out: the application did not make them.
private struct DumpedSchemaObjects {
    /// The shadow tables of virtual tables (FTS, R-Tree), whose content SQLite manages.
    private let shadowTables: Set<String>

    init(_ db: Database) throws {
        shadowTables = try Set(String.fetchAll(db, sql: "SELECT name FROM pragma_table_list WHERE type = 'shadow'"))
    }

    /// Whether the object `name`, of the table `table`, is left out: SQLite's
    /// (`sqlite_`, `pragma_`), the migrator's (`grdb_`), a shadow table, or Ripple's
    /// own tables with their indexes and triggers.
    func hides(name: String, table: String) -> Bool {
        name.hasPrefix("sqlite_") || name.hasPrefix("pragma_") || name.hasPrefix("grdb_")
            || shadowTables.contains(name)
            || RippleTables.hasReservedName(name) || RippleTables.hasReservedName(table)
    }
}
