/// The queries of the associations a request prefetches (`including(all:)`): one query
/// per association for all the fetched rows, not one per row.
///
/// ```sql
/// SELECT * FROM "author" ORDER BY "id"
/// SELECT *, "authorId" AS "grdb_authorId" FROM "book" WHERE "authorId" IN (1, 2, 3)
/// ```
///
/// The foreign key is selected a second time under a name of its own (GRDB's), so that
/// the prefetched rows are grouped by it whatever the association selects.
struct AssociationPrefetcher: Sendable {
    /// A prefetched association, and where its rows go.
    struct Prefetch: Sendable {
        /// The keys of the joined associations it is nested in, then its own.
        var path: [String]
        /// The association from the request's table: nested in joined associations, it
        /// goes through them (GRDB's query joins them, and filters the first on the
        /// keys of the fetched rows).
        var join: AssociationJoin
    }

    let prefetches: [Prefetch]
    let originTable: String
    /// The request, without what it prefetches: the query of the keys of a composite
    /// foreign key (`WITH "grdb_base" AS (SELECT "a", "b" FROM ...)`, as GRDB queries them).
    let base: QueryInterfaceRequest<Row>

    /// Nil when the request prefetches nothing.
    init?<T>(_ request: QueryInterfaceRequest<T>) {
        var prefetches: [Prefetch] = []
        Self.collect(request.joins, path: [], pivots: [], into: &prefetches)
        guard !prefetches.isEmpty else { return nil }
        self.prefetches = prefetches
        originTable = request.tableName
        var base = request.asRequest(of: Row.self)
        base.joins.removeAll { $0.kind == .all }
        // Without limit, the order does not change which rows the query gives.
        if base.limitCount == nil && base.offsetCount == nil { base = base.unordered() }
        self.base = base
    }

    /// The prefetched associations of `joins` and of the associations they join, in the
    /// order of the request.
    private static func collect(_ joins: [AssociationJoin], path: [String], pivots: [_SQLAssociation], into prefetches: inout [Prefetch]) {
        for join in joins {
            if join.kind == .all {
                var prefetch = join
                prefetch.association.pivots = pivots + join.association.pivots
                prefetches.append(Prefetch(path: path + [join.scopeName], join: prefetch))
            } else {
                // The joined association as a step of the nested ones: its filters, not
                // what it joins.
                var pivot = join.association.withoutPivots
                pivot.destination.joins = []
                collect(join.association.destination.joins, path: path + [join.scopeName], pivots: pivots + [pivot], into: &prefetches)
            }
        }
    }

    /// Fetches the rows of each prefetched association and attaches them to `rows`.
    func fetch(_ db: Database, _ rows: [Row]) throws {
        for prefetch in prefetches {
            let grouped = try fetchRows(db, prefetch.join, for: rows)
            for (row, associatedRows) in zip(rows, grouped) {
                row.prefetchedRowsStorage.setRows(associatedRows, at: prefetch.path[...])
            }
        }
    }

    /// The associated rows of each row, in the order of `rows`.
    private func fetchRows(_ db: Database, _ prefetch: AssociationJoin, for rows: [Row]) throws -> [[Row]] {
        // The first step's columns: the destination's, or the first pivot's.
        let pairs = try prefetch.association.steps[0].link.columnPairs(db)
        // The rows of each key, keys in the order of the rows.
        var rowIndexes: [[DatabaseValue]: [Int]] = [:]
        var keys: [[DatabaseValue]] = []
        for (index, row) in rows.enumerated() {
            let key = try pairs.map { pair -> DatabaseValue in
                guard let value = row.prefetchKeyValue(pair.origin) else {
                    throw DatabaseError(
                        message: """
                            the request must select column \(pair.origin) of \(originTable) to prefetch \
                            \(prefetch.scopeName): select it, or annotate the request with it
                            """)
                }
                return value
            }
            if key.contains(where: \.isNull) { continue }
            if rowIndexes[key] == nil { keys.append(key) }
            rowIndexes[key, default: []].append(index)
        }
        var grouped = [[Row]](repeating: [], count: rows.count)
        guard !keys.isEmpty else { return grouped }
        let pivotNames = pairs.map { "grdb_" + $0.destination }
        for row in try request(prefetch, pairs: pairs, keys: keys).fetchAll(db) {
            let key = pivotNames.map { row.prefetchKeyValue($0) ?? .null }
            for index in rowIndexes[key] ?? [] { grouped[index].append(row) }
        }
        return grouped
    }

    /// The region the queries of the prefetched associations read, whatever the rows.
    func region(_ db: Database) throws -> DatabaseRegion {
        var region = DatabaseRegion()
        for prefetch in prefetches {
            let pairs = try prefetch.join.association.steps[0].link.columnPairs(db)
            // (One key, bound: a query of no key may read less than one of any key.)
            let anyKey = pairs.map { _ in 0.databaseValue }
            region.formUnion(try request(prefetch.join, pairs: pairs, keys: [anyKey]).databaseRegion(db))
        }
        return region
    }

    /// The query of a prefetched association, for the rows of these keys.
    private func request(
        _ prefetch: AssociationJoin, pairs: [(origin: String, destination: String)],
        keys: [[DatabaseValue]]
    ) throws -> QueryInterfaceRequest<Row> {
        let association = prefetch.association
        let pivotNames = pairs.map { "grdb_" + $0.destination }
        let predicate: SQLExpression
        if pairs.count == 1 {
            predicate = Self.keyPredicate(pairs[0].destination, keys)
        } else {
            // A composite key: `("a", "b") IN "grdb_base"`, whatever the number of rows.
            let columns = SQLExpression.Node.function("", pairs.map { .column($0.destination) })
            predicate = SQLExpression(.infix("IN", columns, .atom(Self.baseName.quotedDatabaseIdentifier)))
        }
        var request: QueryInterfaceRequest<Row>
        if association.pivots.isEmpty {
            request = association.destination
            request.selection += zip(pairs, pivotNames).map { Column($0.destination).forKey($1) }
            request = request.filter(predicate)
        } else {
            // The destination, joined back to the first pivot, which is filtered on the
            // keys (in its ON clause) and gives its key columns.
            var firstAlias = TableAliasIdentity(userName: nil)
            request = association.inverseRequest { firstTable, _ in
                if let alias = firstTable.alias { firstAlias = alias } else { firstTable.alias = firstAlias }
                firstTable = firstTable.filter(predicate)
            }
            request.selection += zip(pairs, pivotNames).map {
                SQLSelection(.aliased(SQLExpression(.qualifiedColumn(firstAlias, $0.destination)), $1))
            }
        }
        if pairs.count > 1 {
            let keys = base.select(pairs.map { Column($0.origin) })
            request.commonTableExpressions.append(
                CTEDefinition(
                    tableName: Self.baseName, isRecursive: false, columns: nil, query: keys.sqlSubquery, makeSQL: { try keys.makeSQL($0) }))
        }
        return request
    }

    private static let baseName = "grdb_base"

    /// `"authorId" = 1`, or `"authorId" IN (1, 2, 3)`.
    private static func keyPredicate(_ column: String, _ keys: [[DatabaseValue]]) -> SQLExpression {
        // One key is compared, as GRDB writes it: `"authorId" = 1`.
        if keys.count == 1 { return Column(column) == keys[0][0] }
        return keys.map { $0[0] }.contains(Column(column))
    }
}

extension Row {
    /// The value of `column` in the row, nil when the row does not have it.
    fileprivate func prefetchKeyValue(_ column: String) -> DatabaseValue? {
        guard let index = index(forColumn: column) else { return nil }
        return databaseValue(atIndex: index)
    }
}
