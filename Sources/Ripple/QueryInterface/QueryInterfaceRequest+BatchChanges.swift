import CSQLite

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

    /// The clauses of a batch delete or update after the table: `WHERE`, and `ORDER BY`
    /// and `LIMIT` when the request is limited. Rows go by key through a subquery (`WHERE
    /// "id" IN (SELECT "id" FROM ...)`) when the request joins associations, is grouped
    /// (by a unique key: other groups are not rows), or is limited where this SQLite does
    /// not accept `LIMIT` in a `DELETE` or `UPDATE`, or before a `RETURNING` clause (which
    /// would have to come between `WHERE` and `ORDER BY`).
    private func batchClauses(_ db: Database, _ context: inout SQLGenerationContext, returning: Bool) throws -> String {
        let isLimited = limitCount != nil || offsetCount != nil
        let limitsDirectly = supportsUpdateDeleteLimit && !returning
        // (The grouping is checked first: groups that are not rows throw, joins or not.)
        let isGrouped = try isGroupedByUniqueKey(db)
        if isGrouped || joins.contains(where: { $0.kind != .all }) || (isLimited && !limitsDirectly) {
            return try keySubqueryClause(db, &context)
        }
        var sql = ""
        if let predicate = try wherePredicate(db) { sql += " WHERE " + predicate.sql(&context) }
        if isLimited {
            let orderings = try effectiveOrderings(db)
            if !orderings.isEmpty { sql += " ORDER BY " + orderings.map { $0.sql(&context) }.joined(separator: ", ") }
            sql += " LIMIT \(limitCount ?? -1)"
            if let offsetCount { sql += " OFFSET \(offsetCount)" }
        }
        return sql
    }

    /// `WHERE "id" IN (SELECT "id" FROM ...)`: the rows of the request, by their fast key
    /// (the rowid, or the primary key of a WITHOUT ROWID table).
    private func keySubqueryClause(_ db: Database, _ context: inout SQLGenerationContext) throws -> String {
        let keyColumns = try db.fastPrimaryKeyColumns(tableName)
        var keys = select(keyColumns.map { Column($0) }).withoutJoinedSelection()
        keys.commonTableExpressions = []
        let subquery = try keys.makeSQL(db)
        let lhs =
            keyColumns.count == 1
            ? keyColumns[0].quotedDatabaseIdentifier
            : "(" + keyColumns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
        return " WHERE " + lhs + " IN (" + context.bind(sql: subquery.sql, values: subquery.arguments.values) + ")"
    }

    /// Whether the request is grouped; throws when its groups are not rows of its table
    /// (GRDB stops the process there).
    private func isGroupedByUniqueKey(_ db: Database) throws -> Bool {
        if groupsByPrimaryKey, groupings.isEmpty { return true }
        guard !groupings.isEmpty else { return false }
        // A column, or what maps each of its values to one group (`-score`, a collation).
        func column(_ node: SQLExpression.Node) -> String? {
            switch node {
            case .column(let name): return name
            case .qualifiedColumn(let alias, let name): return alias === self.alias ? name : nil
            case .prefix("-", let operand), .collated(let operand, _): return column(operand)
            default: return nil
            }
        }
        let columns = groupings.map { column($0.node) }
        guard try !columns.contains(nil) && !db.isView(tableName) && db.uniqueKey(of: tableName, coveredBy: columns.compactMap { $0 }) != nil else {
            throw DatabaseError(
                message: """
                    a request grouped by other columns than a unique key of table \(tableName) can not be deleted \
                    or updated: its groups are not rows
                    """)
        }
        return true
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

    /// `DELETE FROM ... WHERE ...`, its arguments in `context`; `returning`: a `RETURNING`
    /// clause will end it.
    func deleteSQL(_ db: Database, _ context: inout SQLGenerationContext, returning: Bool = false) throws -> String {
        context.database = db
        var sql = try CTEDefinition.withClause(commonTableExpressions, db, &context) + "DELETE FROM " + tableName.quotedDatabaseIdentifier
        sql += try batchClauses(db, &context, returning: returning)
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
        guard assignments.contains(where: { $0.value != nil }), !filtersNoKey else { return 0 }
        var context = SQLGenerationContext()
        let sql = try updateSQL(db, conflictResolution, assignments, &context)
        try context.checkSubqueries()
        let totalBefore = db.totalChangesCount
        try db.execute(sql: sql, arguments: StatementArguments(context.arguments))
        return try db.changesCount(of: tableName, totalBefore: totalBefore)
    }

    /// `UPDATE ... SET ... WHERE ...`, its arguments in `context`; `returning`: a
    /// `RETURNING` clause will end it.
    func updateSQL(
        _ db: Database, _ conflictResolution: Database.ConflictResolution?,
        _ assignments: [ColumnAssignment], _ context: inout SQLGenerationContext, returning: Bool = false
    ) throws -> String {
        context.database = db
        var sql = try CTEDefinition.withClause(commonTableExpressions, db, &context) + "UPDATE "
        // By default, the conflict policy for updates of the record type, as in GRDB.
        let recordPolicy = (RowDecoder.self as? any MutablePersistableRecord.Type)?.persistenceConflictPolicy.conflictResolutionForUpdate
        if let conflictResolution = conflictResolution ?? recordPolicy, conflictResolution != .abort {
            sql += "OR \(conflictResolution.rawValue) "
        }
        sql += tableName.quotedDatabaseIdentifier + " SET "
        sql += assignments.compactMap { $0.sql(&context) }.joined(separator: ", ")
        sql += try batchClauses(db, &context, returning: returning)
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

/// Whether this SQLite accepts `ORDER BY` and `LIMIT` in `DELETE` and `UPDATE`
/// (`SQLITE_ENABLE_UPDATE_DELETE_LIMIT`).
private let supportsUpdateDeleteLimit = sqlite3_compileoption_used("ENABLE_UPDATE_DELETE_LIMIT") != 0
