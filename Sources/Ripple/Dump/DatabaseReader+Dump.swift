extension DatabaseReader {
    /// Prints the rows of every statement of `sql`, in a read access.
    ///
    /// ```swift
    /// // 1|Arthur|500
    /// // 2|Barbara|1000
    /// try dbQueue.dumpSQL("SELECT * FROM player ORDER BY id")
    /// ```
    ///
    /// A statement that would write throws `SQLITE_READONLY`.
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
        try read { db in try db.dumpSQL(sql, format: format, to: stream) }
    }

    /// Prints the rows of a request, in a read access.
    ///
    /// ```swift
    /// // 1|Arthur|500
    /// // 2|Barbara|1000
    /// try dbQueue.dumpRequest(Player.order(Column("id")))
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
        try read { db in try db.dumpRequest(request, format: format, to: stream) }
    }

    /// Prints the rows of tables and views, each one after its name when there are
    /// several, in a read access.
    ///
    /// ```swift
    /// // player
    /// // 1|Arthur|500
    /// // 2|Barbara|1000
    /// //
    /// // team
    /// // 1|Red
    /// // 2|Blue
    /// try dbQueue.dumpTables(["player", "team"])
    /// ```
    ///
    /// See ``Database/dumpTables(_:format:tableHeader:stableOrder:to:)``.
    ///
    /// - Parameters:
    ///   - tables: The names of the tables and views.
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
        try read { db in
            try db.dumpTables(tables, format: format, tableHeader: tableHeader, stableOrder: stableOrder, to: stream)
        }
    }

    /// Prints the schema, then the rows of each table, in a read access.
    ///
    /// ```swift
    /// try dbQueue.dumpContent()
    /// // sqlite_master
    /// // CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
    /// //
    /// // player
    /// // 1|Arthur|500
    /// // 2|Barbara|1000
    /// ```
    ///
    /// See ``Database/dumpContent(format:to:)``.
    ///
    /// - Parameters:
    ///   - format: The output format of rows.
    ///   - stream: Where to print; the standard output by default.
    public func dumpContent(
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil
    ) throws {
        try read { db in try db.dumpContent(format: format, to: stream) }
    }

    /// Prints the schema, in a read access.
    ///
    /// ```swift
    /// try dbQueue.dumpSchema()
    /// // sqlite_master
    /// // CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
    /// ```
    ///
    /// See ``Database/dumpSchema(to:)``.
    ///
    /// - Parameter stream: Where to print; the standard output by default.
    public func dumpSchema(to stream: (any TextOutputStream)? = nil) throws {
        try read { db in try db.dumpSchema(to: stream) }
    }
}
