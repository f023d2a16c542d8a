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

    /// The primary key columns, or all selected columns of a view (by name, so that the
    /// request can still be reversed). Not the rowid, which a VACUUM may change.
    func stableOrderings(_ db: Database) throws -> [SQLOrdering] {
        if try !db.isView(tableName) || db.configuration.schemaSource != nil {
            return try db.primaryKey(tableName).columns.map { Column($0).asc }
        }
        var unordered = self
        unordered.hasStableOrder = false
        return try db.makeStatement(sql: unordered.makeSQL(db).sql).columnNames.map { Column($0).asc }
    }
}
