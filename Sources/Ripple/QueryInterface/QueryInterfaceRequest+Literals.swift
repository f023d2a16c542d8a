// Selection, filtering, ordering and grouping written in SQL, or with `SQL` literals, and
// the array and annotation forms of `select`, `order` and `group`.
extension QueryInterfaceRequest {
    /// Selects columns written in SQL: `select(sql: "name, score * ?", arguments: [2])`.
    ///
    /// - Parameters:
    ///   - sql: The selected columns, separated by commas.
    ///   - arguments: The values of their parameters.
    public func select(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        select(literal: SQL(sql: sql, arguments: arguments))
    }

    /// Selects columns written as an SQL literal: `select(literal: "name, score * \(2)")`.
    ///
    /// - Parameter sqlLiteral: The selected columns, separated by commas.
    public func select(literal sqlLiteral: SQL) -> Self {
        select([sqlLiteral])
    }

    /// Selects columns written in SQL, fetched as `type`.
    ///
    /// - Parameters:
    ///   - sql: The selected columns.
    ///   - arguments: The values of their parameters.
    ///   - type: The fetched type.
    public func select<T>(sql: String, arguments: StatementArguments = StatementArguments(), as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select(sql: sql, arguments: arguments).asRequest(of: T.self)
    }

    /// Selects columns written as an SQL literal, fetched as `type`.
    ///
    /// - Parameters:
    ///   - sqlLiteral: The selected columns.
    ///   - type: The fetched type.
    public func select<T>(literal sqlLiteral: SQL, as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select(literal: sqlLiteral).asRequest(of: T.self)
    }

    /// Selects these columns or expressions, fetched as `type`:
    /// `Player.all().select([max(Column("score"))], as: Int.self)`.
    ///
    /// - Parameters:
    ///   - selection: The selected columns or expressions.
    ///   - type: The fetched type.
    public func select<T>(_ selection: [any SQLSelectable], as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select(selection).asRequest(of: T.self)
    }

    /// Selects the primary key, instead of the current selection: `SELECT "id" FROM ...`
    /// (`rowid` for a table without a primary key). A composite key is fetched as rows,
    /// or as a record:
    ///
    /// ```swift
    /// let ids: [Int64] = try Player.filter(Column("score") > 100).selectPrimaryKey().fetchAll(db)
    /// let keys = try Citizenship.all().selectPrimaryKey(as: Row.self).fetchAll(db)
    /// ```
    ///
    /// - Parameter type: The fetched type.
    public func selectPrimaryKey<PrimaryKey>(as type: PrimaryKey.Type = PrimaryKey.self) -> QueryInterfaceRequest<PrimaryKey> {
        var request = self
        request.selection = [SQLSelection(.primaryKey)]
        return request.asRequest(of: PrimaryKey.self)
    }

    /// Selects the identifier, a single-column primary key: `SELECT "id" FROM ...`.
    ///
    /// ```swift
    /// let ids: [Int64] = try Player.filter(Column("score") > 100).selectID().fetchAll(db)
    /// ```
    ///
    /// A table whose primary key has several columns makes the request fail with an
    /// error (use ``selectPrimaryKey(as:)``).
    public func selectID() -> QueryInterfaceRequest<RowDecoder.ID> where RowDecoder: Identifiable {
        let table = tableName
        var request = self
        request.selection = [
            SQLSelection(
                .whenConnected { db in
                    let primaryKey = try db.primaryKey(table)
                    if primaryKey.columns.count > 1 {
                        throw DatabaseError(
                            message:
                                "selectID needs a primary key of one column; table \(table) has \(primaryKey.columns.count): use selectPrimaryKey(as:)"
                        )
                    }
                    return Column(primaryKey.columns.first ?? "rowid").sqlSelection
                })
        ]
        return request.asRequest(of: RowDecoder.ID.self)
    }

    /// Selects what `selection` makes with the connection when the request runs.
    ///
    /// ```swift
    /// // SELECT "id", "name" FROM "player": the columns the table has now
    /// let request = Player.all().selectWhenConnected { db in
    ///     try db.columns(in: "player").filter { $0.name != "secret" }.map { Column($0.name) }
    /// }
    /// ```
    ///
    /// - Parameter selection: Makes the selected columns or expressions.
    public func selectWhenConnected(_ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self {
        var request = self
        request.selection = [SQLSelection(.whenConnectedList { db in try selection(db).map(\.sqlSelection) })]
        return request
    }

    /// Appends to the selection what `selection` makes with the connection when the
    /// request runs.
    ///
    /// - Parameter selection: Makes the appended columns or expressions.
    public func annotatedWhenConnected(with selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self {
        var request = self
        request.selection.append(SQLSelection(.whenConnectedList { db in try selection(db).map(\.sqlSelection) }))
        return request
    }

    /// Filters groups with a predicate made with the connection when the request runs:
    /// `HAVING`.
    ///
    /// - Parameter predicate: Makes the predicate.
    public func havingWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self {
        var request = self
        request.havingsWhenConnected.append { db in try predicate(db).sqlExpression }
        return request
    }

    /// Appends columns or expressions to the selection: `annotated(with: [Column("score") * 2])`.
    ///
    /// - Parameter selection: The columns or expressions to append.
    public func annotated(with selection: [any SQLSelectable]) -> Self {
        var request = self
        request.selection += selection.map(\.sqlSelection)
        return request
    }

    /// Appends columns or expressions to the selection: `annotated(with: Column("score") * 2)`.
    ///
    /// - Parameter selection: The columns or expressions to append.
    public func annotated(with selection: any SQLSelectable...) -> Self {
        annotated(with: selection)
    }

    /// Keeps rows that satisfy an SQL literal condition: `filter(literal: "score > \(1000)")`.
    ///
    /// - Parameter sqlLiteral: The condition.
    public func filter(literal sqlLiteral: SQL) -> Self {
        filter(sqlLiteral)
    }

    /// A request of no row: the same request, with a condition that is always false.
    public func none() -> Self {
        filter(SQLExpression(.atom("0")))
    }

    /// Sorts by these orderings instead.
    ///
    /// - Parameter orderings: Columns, expressions, or orderings such as `Column("score").desc`.
    public func order(_ orderings: [any SQLOrderingTerm]) -> Self {
        var request = self
        request.orderings = orderings.map(\.sqlOrdering)
        request.isReversed = false
        request.ordersByPrimaryKey = false
        return request
    }

    /// Sorts by an SQL literal ordering instead: `order(literal: "score DESC, name")`.
    ///
    /// - Parameter sqlLiteral: The orderings, with their directions.
    public func order(literal sqlLiteral: SQL) -> Self {
        order([sqlLiteral])
    }

    /// Removes the orderings, and the reversal.
    public func unordered() -> Self {
        order([])
    }

    /// Groups rows: `GROUP BY`.
    ///
    /// - Parameter expressions: The grouping columns or expressions.
    public func group(_ expressions: [any SQLExpressible]) -> Self {
        var request = self
        request.groupings = expressions.map(\.sqlExpression)
        request.groupsByPrimaryKey = false
        return request
    }

    /// Groups rows with SQL: `group(sql: "lower(name)")`.
    ///
    /// - Parameters:
    ///   - sql: The grouping expressions, separated by commas.
    ///   - arguments: The values of their parameters.
    public func group(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        group(literal: SQL(sql: sql, arguments: arguments))
    }

    /// Groups rows with an SQL literal: `group(literal: "lower(name)")`.
    ///
    /// - Parameter sqlLiteral: The grouping expressions, separated by commas.
    public func group(literal sqlLiteral: SQL) -> Self {
        group([sqlLiteral])
    }

    /// Filters groups with SQL: `having(sql: "MIN(score) > ?", arguments: [100])`.
    ///
    /// - Parameters:
    ///   - sql: The condition.
    ///   - arguments: The values of its parameters.
    public func having(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        having(SQLExpression(sql: sql, arguments: arguments))
    }

    /// Filters groups with an SQL literal: `having(literal: "MIN(score) > \(100)")`.
    ///
    /// - Parameter sqlLiteral: The condition.
    public func having(literal sqlLiteral: SQL) -> Self {
        having(sqlLiteral)
    }
}
