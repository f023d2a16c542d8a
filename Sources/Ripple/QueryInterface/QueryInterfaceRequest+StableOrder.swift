extension QueryInterfaceRequest {
    /// The same request, with an order that does not depend on how SQLite happens to visit
    /// rows: its orderings, then the primary key (all selected columns for a view, which
    /// has none).
    ///
    /// ```swift
    /// // SELECT * FROM player ORDER BY score DESC, id
    /// let request = Player.order(Column("score").desc).withStableOrder()
    /// ```
    public func withStableOrder() -> QueryInterfaceRequest<RowDecoder> {
        var request = self
        request.hasStableOrder = true
        return request
    }

    /// The primary key columns, or all selected columns of a view by position (`ORDER BY
    /// 1, 2, 3`), as GRDB writes them. Not the rowid of a table whose primary key is a
    /// column, since a VACUUM may change it.
    func stableOrderings(_ db: Database) throws -> [SQLOrdering] {
        // Without a primary key to read (a view, a common table expression), by position.
        if try !db.isView(tableName) || db.schemaSource != nil, let primaryKey = try? db.primaryKey(tableName) {
            return primaryKey.columns.map { Column($0).sqlOrdering }
        }
        var unordered = self
        unordered.hasStableOrder = false
        let columnCount = try db.makeStatement(sql: unordered.makeSQL(db).sql).columnCount
        return (1...max(columnCount, 1)).map { SQLOrdering(implicitlyAscending: SQLExpression(.atom(String($0)))) }
    }
}
