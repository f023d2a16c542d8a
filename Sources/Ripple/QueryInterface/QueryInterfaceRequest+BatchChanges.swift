// Batch deletes and updates of the rows a request selects: `deleteAll`, `updateAll`.

extension QueryInterfaceRequest {
    /// Deletes the rows of the request and returns how many were deleted.
    @discardableResult
    public func deleteAll(_ db: Database) throws -> Int {
        if filtersNoKey { return 0 }
        var context = SQLGenerationContext()
        let sql = try deleteSQL(db, &context)
        try context.checkSubqueries()
        let totalBefore = db.totalChangesCount
        try db.execute(sql: sql, arguments: StatementArguments(context.arguments))
        return try db.changesCount(of: tableName, totalBefore: totalBefore)
    }

    /// The WHERE clause of a batch delete or update; with joined associations, the rows
    /// the joins select, by primary key: `WHERE "id" IN (SELECT "book"."id" FROM ... JOIN ...)`.
    private func batchWhereClause(_ db: Database, _ context: inout SQLGenerationContext) throws -> String {
        guard joins.contains(where: { $0.kind != .all }) else {
            guard let predicate = try wherePredicate(db) else { return "" }
            return " WHERE " + predicate.sql(&context)
        }
        let primaryKey = try db.primaryKey(tableName)
        let keyColumns = primaryKey.rowIDColumn != nil && primaryKey.columns.isEmpty ? ["rowid"] : primaryKey.columns
        var keys = select(keyColumns.map { Column($0) }).withoutJoinedSelection()
        keys.commonTableExpressions = []
        let subquery = try keys.makeSQL(db)
        let lhs =
            keyColumns.count == 1
            ? keyColumns[0].quotedDatabaseIdentifier
            : "(" + keyColumns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
        return " WHERE " + lhs + " IN (" + context.bind(sql: subquery.sql, values: subquery.arguments.values) + ")"
    }

    /// The request, its joined associations selecting nothing, and prefetching nothing:
    /// for counts and batch changes.
    func withoutJoinedSelection() -> Self {
        guard !joins.isEmpty else { return self }
        var request = self
        request.joins = joins.filter { $0.kind != .all }.map { join in
            var join = join
            join.selection = .none
            join.association.destination = join.association.destination.withoutJoinedSelection()
            return join
        }
        return request
    }

    /// `DELETE FROM ... WHERE ...`, its arguments in `context`.
    func deleteSQL(_ db: Database, _ context: inout SQLGenerationContext) throws -> String {
        context.database = db
        var sql = try CTEDefinition.withClause(commonTableExpressions, db, &context) + "DELETE FROM " + tableName.quotedDatabaseIdentifier
        sql += try batchWhereClause(db, &context)
        return sql
    }

    /// Updates the rows of the request and returns how many were updated:
    /// `Player.filter(...).updateAll(db, Column("score").set(to: 0))`.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: ColumnAssignment...
    ) throws -> Int {
        try updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates the rows of the request and returns how many were updated.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]
    ) throws -> Int {
        guard !assignments.isEmpty, !filtersNoKey else { return 0 }
        var context = SQLGenerationContext()
        let sql = try updateSQL(db, conflictResolution, assignments, &context)
        try context.checkSubqueries()
        let totalBefore = db.totalChangesCount
        try db.execute(sql: sql, arguments: StatementArguments(context.arguments))
        return try db.changesCount(of: tableName, totalBefore: totalBefore)
    }

    /// `UPDATE ... SET ... WHERE ...`, its arguments in `context`.
    func updateSQL(
        _ db: Database, _ conflictResolution: Database.ConflictResolution?,
        _ assignments: [ColumnAssignment], _ context: inout SQLGenerationContext
    ) throws -> String {
        context.database = db
        var sql = try CTEDefinition.withClause(commonTableExpressions, db, &context) + "UPDATE "
        if let conflictResolution { sql += "OR \(conflictResolution.rawValue) " }
        sql += tableName.quotedDatabaseIdentifier + " SET "
        sql += assignments.map { $0.columnName.quotedDatabaseIdentifier + " = " + $0.value.sql(&context) }.joined(separator: ", ")
        sql += try batchWhereClause(db, &context)
        return sql
    }
}

extension QueryInterfaceRequest where RowDecoder: TableRecord {
    /// Updates the rows of the request with assignments built from the table's columns:
    /// `Player.filter(...).updateAll(db) { $0.score += 1 }`.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignment: (RowDecoder.DatabaseComponents) -> ColumnAssignment
    ) throws -> Int {
        try updateAll(db, onConflict: conflictResolution, [assignment(RowDecoder.databaseComponents)])
    }

    /// Updates the rows of the request with assignments built from the table's columns:
    /// `Player.updateAll(db) { [$0.score.set(to: 0), $0.bonus.set(to: nil)] }`.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (RowDecoder.DatabaseComponents) -> [ColumnAssignment]
    ) throws -> Int {
        try updateAll(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
    }
}
