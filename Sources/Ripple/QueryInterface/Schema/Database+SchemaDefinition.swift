extension Database {
    /// Creates a table.
    ///
    /// ```swift
    /// try db.create(table: "place") { t in
    ///     t.autoIncrementedPrimaryKey("id")
    ///     t.column("title", .text)
    ///     t.column("favorite", .boolean).notNull().defaults(to: false)
    /// }
    /// ```
    public func create(table name: String, options: TableOptions = [], body: (TableDefinition) throws -> Void) throws {
        let definition = TableDefinition(name: name, options: options)
        try body(definition)
        try execute(sql: try definition.sql(self))
        // Named as GRDB 7 names them: `<table>_on_<column>` for one column, and, for the
        // columns of a composite foreign key, as `create(indexOn:columns:)` does.
        func indexName(_ columns: [String]) -> String {
            columns.count == 1 ? "\(name)_on_\(columns[0])" : Self.defaultIndexName(on: name, columns: columns)
        }
        for columns in definition.indexedColumns {
            try create(index: indexName(columns), on: name, columns: columns, options: options.contains(.ifNotExists) ? .ifNotExists : [])
        }
        for columns in definition.uniqueIndexedColumns {
            try create(
                index: indexName(columns), on: name, columns: columns,
                options: options.contains(.ifNotExists) ? [.ifNotExists, .unique] : .unique)
        }
    }

    /// `index_<table>_on_<columns>`.
    static func defaultIndexName(on table: String, columns: [String]) -> String {
        "index_\(table)_on_\(columns.joined(separator: "_"))"
    }

    /// Creates an index named `index_<table>_on_<columns>`.
    ///
    /// ```swift
    /// // CREATE INDEX index_player_on_email ON player(email)
    /// try db.create(indexOn: "player", columns: ["email"])
    /// ```
    public func create(indexOn table: String, columns: [String], options: IndexOptions = [], condition: (any SQLExpressible)? = nil) throws {
        try create(index: Self.defaultIndexName(on: table, columns: columns), on: table, columns: columns, options: options, condition: condition)
    }

    /// Renames a table: `ALTER TABLE ... RENAME TO ...`.
    public func rename(table name: String, to newName: String) throws {
        try execute(sql: "ALTER TABLE \(name.quotedDatabaseIdentifier) RENAME TO \(newName.quotedDatabaseIdentifier)")
    }

    /// Modifies a table: add, rename and drop columns.
    ///
    /// ```swift
    /// try db.alter(table: "player") { t in
    ///     t.add(column: "hasBonus", .boolean)
    ///     t.rename(column: "url", to: "homeURL")
    ///     t.drop(column: "score")
    /// }
    /// ```
    public func alter(table name: String, body: (TableAlteration) throws -> Void) throws {
        let alteration = TableAlteration(name: name)
        try body(alteration)
        for sql in try alteration.allStatements(self) { try execute(sql: sql) }
    }

    /// Drops a table.
    public func drop(table name: String) throws {
        try execute(sql: "DROP TABLE \(name.quotedDatabaseIdentifier)")
    }

    /// Creates an index.
    ///
    /// ```swift
    /// try db.create(index: "byEmail", on: "player", columns: ["email"], options: .unique)
    /// try db.create(index: "bestScores", on: "player", columns: ["score"], condition: Column("score") > 1000)
    /// ```
    public func create(index name: String, on table: String, columns: [String], options: IndexOptions = [], condition: (any SQLExpressible)? = nil)
        throws
    {
        try create(index: name, on: table, expressions: columns.map { Column($0) }, options: options, condition: condition)
    }

    /// Creates an index on expressions.
    ///
    /// ```swift
    /// try db.create(index: "byCountry", on: "player", expressions: [JSONColumn("address")["country"]])
    /// ```
    ///
    /// - Parameters:
    ///   - name: The index name.
    ///   - table: The indexed table.
    ///   - expressions: The indexed expressions, written with their values inlined.
    ///   - options: `unique`, `ifNotExists`.
    ///   - condition: When not nil, the index is partial: it indexes the rows where it holds.
    public func create(
        index name: String, on table: String, expressions: [any SQLExpressible],
        options: IndexOptions = [], condition: (any SQLExpressible)? = nil
    ) throws {
        var sql = "CREATE "
        if options.contains(.unique) { sql += "UNIQUE " }
        sql += "INDEX "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        sql += "\(name.quotedDatabaseIdentifier) ON \(table.quotedDatabaseIdentifier)(\(expressions.map(\.inlineSQL).joined(separator: ", ")))"
        if let condition { sql += " WHERE \(condition.inlineSQL)" }
        try execute(sql: sql)
    }

    /// Drops an index.
    public func drop(index name: String) throws {
        try execute(sql: "DROP INDEX \(name.quotedDatabaseIdentifier)")
    }

    /// Creates a view of a request.
    ///
    /// ```swift
    /// try db.create(view: "hero", as: Player.filter(Column("score") > 1000))
    /// ```
    public func create(view name: String, options: ViewOptions = [], columns: [String]? = nil, as request: some FetchRequest) throws {
        let prepared = try request.makePreparedRequest(self, forSingleResult: false)
        var sql = "CREATE "
        if options.contains(.temporary) { sql += "TEMPORARY " }
        sql += "VIEW "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        sql += name.quotedDatabaseIdentifier
        if let columns { sql += " (" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")" }
        // A view takes no arguments: the request's values are written in its SQL.
        guard let inlined = SQLGenerationContext.inlining(prepared.statement.sql, values: prepared.arguments.values) else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE, message: "a view's request has more parameters than arguments", sql: prepared.statement.sql,
                arguments: prepared.arguments)
        }
        sql += " AS " + inlined
        try execute(sql: sql)
    }

    /// Drops a view.
    public func drop(view name: String) throws {
        try execute(sql: "DROP VIEW \(name.quotedDatabaseIdentifier)")
    }
}

/// Modifications of a table; see `Database.alter(table:body:)`.
public final class TableAlteration {
    let name: String

    init(name: String) { self.name = name }

    /// `ALTER TABLE ... ADD COLUMN ...`.
    @discardableResult
    public func add(column: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
        let definition = ColumnDefinition(name: column, type: type)
        pending.append(definition)
        return definition
    }
    private var pending: [ColumnDefinition] = []

    /// `ALTER TABLE ... ADD COLUMN <sql>`, the column's definition written by hand:
    /// `t.addColumn(sql: "bonus INTEGER")`.
    public func addColumn(sql: String) {
        addColumn(literal: SQL(sql: sql))
    }

    /// `ALTER TABLE ... ADD COLUMN <literal>`, its values written in the SQL (a schema
    /// statement takes no arguments): `t.addColumn(literal: "name TEXT DEFAULT \(defaultName)")`.
    public func addColumn(literal: SQL) {
        appendPendingColumns()
        steps.append(.literal(literal))
    }

    /// `ALTER TABLE ... RENAME COLUMN ... TO ...`.
    public func rename(column: String, to newName: String) {
        appendPendingColumns()
        steps.append(
            .statement(
                "ALTER TABLE \(name.quotedDatabaseIdentifier) RENAME COLUMN \(column.quotedDatabaseIdentifier) TO \(newName.quotedDatabaseIdentifier)"
            ))
    }

    /// `ALTER TABLE ... DROP COLUMN ...`.
    public func drop(column: String) {
        appendPendingColumns()
        steps.append(.statement("ALTER TABLE \(name.quotedDatabaseIdentifier) DROP COLUMN \(column.quotedDatabaseIdentifier)"))
    }

    /// The alterations written so far, in their order (a column added then renamed is
    /// added first); added columns wait for their SQL until the connection is known.
    private enum Step {
        case statement(String)
        case add(ColumnDefinition)
        case literal(SQL)
    }
    private var steps: [Step] = []

    private func appendPendingColumns() {
        steps += pending.map(Step.add)
        pending.removeAll()
    }

    /// The statements, once the primary keys that added references need are known.
    func allStatements(_ db: Database) throws -> [String] {
        appendPendingColumns()
        return try steps.map { step in
            switch step {
            case .statement(let sql): return sql
            case .add(let column):
                let sql = try column.sql(db, table: name) { try db.primaryKey(self.name).columns }
                return "ALTER TABLE \(name.quotedDatabaseIdentifier) ADD COLUMN \(sql)"
            case .literal(let literal):
                guard literal.arguments.namedValues.isEmpty,
                    let sql = SQLGenerationContext.inlining(literal.sql, values: literal.arguments.values)
                else {
                    throw DatabaseError(
                        resultCode: .SQLITE_MISUSE, message: "a column definition takes no named arguments, and one value per parameter",
                        sql: literal.sql, arguments: literal.arguments)
                }
                return "ALTER TABLE \(name.quotedDatabaseIdentifier) ADD COLUMN \(sql)"
            }
        }
    }
}
