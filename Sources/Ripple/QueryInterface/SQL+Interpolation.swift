extension SQL {
    /// The interpolation of ``SQL`` literals: values are bound as arguments, columns,
    /// expressions, selections, orderings and table names are written as SQL.
    ///
    /// ```swift
    /// let query: SQL = """
    ///     SELECT \(columnsOf: Player.self) FROM \(Player.self)
    ///     WHERE \(Column("score")) > \(1000) AND id IN \(ids)
    ///     ORDER BY \(Column("name").desc)
    ///     """
    /// ```
    public struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var arguments = StatementArguments()

        /// Reserves room for the literal parts.
        ///
        /// - Parameters:
        ///   - literalCapacity: The length of the literal parts.
        ///   - interpolationCount: The number of interpolations.
        public init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + interpolationCount)
        }

        /// Appends SQL as written.
        ///
        /// - Parameter literal: Raw SQL.
        public mutating func appendLiteral(_ literal: String) {
            sql += literal
        }

        private mutating func appendOrNull(_ generate: ((inout SQLGenerationContext) -> String)?) {
            if let generate { append(generate) } else { sql += "NULL" }
        }

        private mutating func append(_ generate: (inout SQLGenerationContext) -> String) {
            var context = SQLGenerationContext()
            sql += generate(&context)
            arguments.append(contentsOf: StatementArguments(context.arguments))
        }

        // MARK: Expressions

        /// An expression (`\(Column("score") + 1)`) or a value, bound as an argument
        /// (`\(1000)`); nil is `NULL`.
        ///
        /// - Parameter expressible: A column, an expression or a value.
        @_disfavoredOverload
        public mutating func appendInterpolation(_ expressible: (any SQLExpressible)?) {
            appendOrNull(expressible?.sqlExpression.sql)
        }

        /// The SQL of a request, not parenthesized: `score = (\(subquery))`.
        ///
        /// ```swift
        /// let subquery = Player.select { max($0.score) }
        /// // SELECT * FROM player WHERE score = (SELECT MAX("score") FROM "player")
        /// let request: SQLRequest<Player> = "SELECT * FROM player WHERE score = (\(subquery))"
        /// ```
        ///
        /// An SQL literal is written without a connection: a query interface request that
        /// needs the schema (associations, key filters, primary key orderings) makes a
        /// statement that fails to compile, with an error that says so.
        ///
        /// - Parameter subquery: A request.
        public mutating func appendInterpolation(_ subquery: some SQLSubqueryable) {
            append { context in context.sql(of: subquery.sqlSubquery) }
        }

        /// An expression that is also a selection and an ordering, such as a column.
        ///
        /// - Parameter expressible: A column or an expression.
        public mutating func appendInterpolation(_ expressible: some SQLExpressible & SQLSelectable & SQLOrderingTerm) {
            append(expressible.sqlExpression.sql)
        }

        /// A string, bound as an argument.
        ///
        /// - Parameter string: A string.
        public mutating func appendInterpolation<S: StringProtocol>(_ string: S) {
            appendInterpolation(String(string) as any SQLExpressible)
        }

        /// A value that is also a sequence, such as `Data`, bound as one argument.
        ///
        /// - Parameter expressible: The value.
        public mutating func appendInterpolation<S>(_ expressible: S) where S: SQLExpressible, S: Sequence, S.Element: SQLExpressible {
            appendInterpolation(expressible as any SQLExpressible)
        }

        /// A list of values or expressions, parenthesized for `IN`: `id IN \(ids)` is
        /// `id IN (?,?,?)`; an empty list is a subquery of no row.
        ///
        /// - Parameter sequence: The values or expressions.
        public mutating func appendInterpolation(_ sequence: some Sequence<some SQLExpressible>) {
            appendList(sequence.map(\.sqlExpression))
        }

        /// A list of values or expressions of several types, parenthesized for `IN`.
        ///
        /// - Parameter sequence: The values or expressions.
        public mutating func appendInterpolation(_ sequence: some Sequence<any SQLExpressible>) {
            appendList(sequence.map(\.sqlExpression))
        }

        private mutating func appendList(_ expressions: [SQLExpression]) {
            guard !expressions.isEmpty else {
                sql += "(SELECT NULL WHERE NULL)"
                return
            }
            append { context in "(" + expressions.map { $0.sql(&context) }.joined(separator: ",") + ")" }
        }

        // MARK: Selections and orderings

        /// A selection: `\(AllColumns())`, `\(Column("name").forKey("foo"))`.
        ///
        /// - Parameter selection: The selection.
        public mutating func appendInterpolation(_ selection: some SQLSelectable) {
            append(selection.sqlSelection.sql)
        }

        /// A selection, or `NULL`.
        ///
        /// - Parameter selection: The selection.
        @_disfavoredOverload
        public mutating func appendInterpolation(_ selection: (any SQLSelectable)?) {
            appendOrNull(selection?.sqlSelection.sql)
        }

        /// An ordering: `ORDER BY \(Column("name").desc)`.
        ///
        /// - Parameter orderingTerm: The ordering.
        public mutating func appendInterpolation(_ orderingTerm: some SQLOrderingTerm) {
            append(orderingTerm.sqlOrdering.sql)
        }

        /// An ordering.
        ///
        /// - Parameter orderingTerm: The ordering.
        @_disfavoredOverload
        public mutating func appendInterpolation(_ orderingTerm: any SQLOrderingTerm) {
            append(orderingTerm.sqlOrdering.sql)
        }

        // MARK: Columns of coding keys

        /// The column of a coding key: `\(CodingKeys.score)`.
        ///
        /// - Parameter key: The coding key.
        public mutating func appendInterpolation(_ key: some CodingKey) {
            appendInterpolation(Column(key.stringValue))
        }

        /// The column of a coding key that is also an expression.
        ///
        /// - Parameter key: The coding key.
        public mutating func appendInterpolation(_ key: some CodingKey & SQLExpressible & SQLSelectable & SQLOrderingTerm) {
            appendInterpolation(Column(key.stringValue))
        }

        /// The column of a coding key.
        ///
        /// - Parameter key: The coding key.
        @_disfavoredOverload
        public mutating func appendInterpolation(_ key: any CodingKey) {
            appendInterpolation(Column(key.stringValue))
        }

        // MARK: Tables

        /// The quoted table name of a record type: `FROM \(Player.self)`.
        ///
        /// - Parameter table: The record type.
        public mutating func appendInterpolation(_ table: (some TableRecord).Type) {
            sql += table.databaseTableName.quotedDatabaseIdentifier
        }

        /// The quoted table name of a record type.
        ///
        /// - Parameter table: The record type.
        public mutating func appendInterpolation(_ table: any TableRecord.Type) {
            sql += table.databaseTableName.quotedDatabaseIdentifier
        }

        /// The quoted name of a table.
        ///
        /// - Parameter table: The table.
        public mutating func appendInterpolation<T>(_ table: Table<T>) {
            sql += table.tableName.quotedDatabaseIdentifier
        }

        /// The quoted table name of a record: `INSERT INTO \(tableOf: player)`.
        ///
        /// - Parameter record: The record.
        public mutating func appendInterpolation(tableOf record: some TableRecord) {
            appendInterpolation(type(of: record))
        }

        /// The quoted table name of a record.
        ///
        /// - Parameter record: The record.
        public mutating func appendInterpolation(tableOf record: any TableRecord) {
            appendInterpolation(type(of: record))
        }

        /// A quoted identifier: `\(identifier: "my table")` is `"my table"`.
        ///
        /// - Parameter identifier: The identifier.
        public mutating func appendInterpolation(identifier: String) {
            sql += identifier.quotedDatabaseIdentifier
        }

        /// The selection of a record type, qualified by its table name, or by `tableAlias`:
        /// `SELECT \(columnsOf: Player.self)` is `SELECT "player".*`.
        ///
        /// - Parameters:
        ///   - recordType: The record type.
        ///   - tableAlias: The name that qualifies the columns, if not the table name.
        public mutating func appendInterpolation(columnsOf recordType: (some TableRecord).Type, tableAlias: String? = nil) {
            let qualifier = (tableAlias ?? recordType.databaseTableName).quotedDatabaseIdentifier
            append { context in
                // Columns are qualified too, as GRDB writes them: `"player"."id"`.
                let previous = context.qualifier
                context.qualifier = qualifier
                defer { context.qualifier = previous }
                return recordType.databaseSelection.map { selectable in
                    let selection = selectable.sqlSelection
                    // A literal has no connection to list the columns with: SQLite fails the
                    // statement with this name of a missing column, the error's message.
                    guard !selection.waitsForConnection else {
                        return "\\(columnsOf:) can not write the selection of \(recordType), made with the connection: select its columns"
                            .quotedDatabaseIdentifier
                    }
                    return selection.sql(&context)
                }.joined(separator: ", ")
            }
        }

        // MARK: Common table expressions

        /// The quoted name of a common table expression: `SELECT * FROM \(cte)`.
        ///
        /// - Parameter cte: A common table expression.
        public mutating func appendInterpolation<T>(_ cte: CommonTableExpression<T>) {
            sql += cte.tableName.quotedDatabaseIdentifier
        }

        /// The definition of a common table expression, for a `WITH` clause:
        /// `"cte"("a", "b") AS (SELECT ...)`.
        ///
        /// ```swift
        /// let cte = CommonTableExpression(named: "name", literal: "SELECT \("O'Brien")")
        /// let request: SQLRequest<String> = "WITH \(definitionFor: cte) SELECT * FROM \(cte)"
        /// ```
        ///
        /// A query interface request that needs the schema makes a statement that fails to
        /// compile, with an error that says so, as a request interpolated as a subquery does.
        ///
        /// - Parameter cte: A common table expression.
        public mutating func appendInterpolation<T>(definitionFor cte: CommonTableExpression<T>) {
            append { context in cte.definition.head + " AS (" + context.sql(of: cte.definition.query) + ")" }
        }

        // MARK: SQL, requests and collations

        /// Raw SQL, with arguments.
        ///
        /// - Parameters:
        ///   - sql: Raw SQL.
        ///   - arguments: The values of its parameters.
        public mutating func appendInterpolation(sql: String, arguments: StatementArguments = StatementArguments()) {
            self.sql += sql
            self.arguments.append(contentsOf: arguments)
        }

        /// Other SQL, as written (not as an expression).
        ///
        /// - Parameter sqlLiteral: An SQL literal.
        public mutating func appendInterpolation(_ sqlLiteral: SQL) {
            appendInterpolation(sql: sqlLiteral.sql, arguments: sqlLiteral.arguments)
        }

        /// Other SQL, as written: `WHERE \(literal: condition)`.
        ///
        /// - Parameter sqlLiteral: An SQL literal.
        public mutating func appendInterpolation(literal sqlLiteral: SQL) {
            appendInterpolation(sqlLiteral)
        }

        /// The SQL of a request, for a subquery: `WHERE score = (\(maxScoreRequest))`.
        ///
        /// - Parameter request: The request.
        public mutating func appendInterpolation<T>(_ request: SQLRequest<T>) {
            appendInterpolation(sql: request.sql, arguments: request.arguments)
        }

        /// A collation name: `ORDER BY email COLLATE \(.nocase)`.
        ///
        /// - Parameter collation: The collation.
        public mutating func appendInterpolation(_ collation: Database.CollationName) {
            sql += collation.rawValue
        }

        /// The name of a custom collation: `COLLATE \(.localizedCompare)`.
        ///
        /// - Parameter collation: The collation.
        public mutating func appendInterpolation(_ collation: DatabaseCollation) {
            sql += collation.name
        }
    }
}
