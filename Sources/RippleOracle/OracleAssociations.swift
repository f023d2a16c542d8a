import Foundation
import Ripple

extension OracleRun {
    /// Value observations of association requests between a table and its parent (the
    /// `p` column refers to the parent's `id`): a join, a prefetch, an aggregate. Their
    /// ground truth is what their queries return, read with the raw C API; a transaction
    /// that changes it must notify them, one that writes neither table must not.
    func startAssociationObservations(of child: OracleTable) throws {
        guard let parentName = child.parent?.name, let parent = tables.first(where: { $0.name == parentName }) else { return }
        let childTable = Table<Row>(child.name)
        let parentTable = Table<Row>(parent.name)
        let toParent = childTable.belongsTo(parentTable, key: "parent")
        let toChildren = parentTable.hasMany(childTable, key: "children")
        let tableKeys: Set<String> = [child.key, parent.key]

        try startAssociationWatch(
            label: "value \(child.name).including(optional: \(parent.name))", tableKeys: tableKeys,
            request: childTable.including(optional: toParent).order(Column(child.keyExpression)))
        try startAssociationWatch(
            label: "value \(parent.name).annotated(with: \(child.name) count and max)", tableKeys: tableKeys,
            request: parentTable.annotated(with: toChildren.count, toChildren.max(Column("a"))).order(Column("id")))

        // The prefetch: each parent row, then its children, as Ripple attaches them (the
        // grouping column included), sorted.
        let prefetchLabel = "value \(parent.name).including(all: \(child.name))"
        let request = parentTable.including(all: toChildren).order(Column("id"))
        let parentSQL = "SELECT * FROM \(parent.quotedName) ORDER BY id"
        let childSQL = "SELECT *, p AS grdb_p FROM \(child.quotedName) WHERE p IS NOT NULL"
        let truth: @Sendable (Database) throws -> [String] = { db in
            let parents = try Snapshot.query(db.sqliteConnection!, parentSQL)
            let children = try Snapshot.query(db.sqliteConnection!, childSQL)
            let pIndex = try requiredIndex(children.columns.firstIndex(of: "p"))
            var byParent: [String: [String]] = [:]
            for row in children.rows {
                byParent[row[pIndex] ?? "NULL", default: []].append(Snapshot.canonical(columns: children.columns, row: row))
            }
            let idIndex = try requiredIndex(parents.columns.firstIndex(of: "id"))
            return parents.rows.map { row in
                Snapshot.canonical(columns: parents.columns, row: row) + " # "
                    + (byParent[row[idIndex] ?? "NULL"] ?? []).sorted().joined(separator: " & ")
            }
        }
        try startValueWatch(
            WatchSpec(target: .view(query: prefetchLabel, tableKeys: tableKeys), label: prefetchLabel, watchesSchema: true),
            truth: truth
        ) { db in
            try Row.fetchAll(db, request).map { row in
                canonical(row) + " # " + (row.prefetchedRows["children"] ?? []).map(canonical).sorted().joined(separator: " & ")
            }
        }
    }

    /// A value observation of all rows of `request`, whose truth is the same SQL.
    private func startAssociationWatch(label: String, tableKeys: Set<String>, request: QueryInterfaceRequest<Row>) throws {
        let truthSQL = try writer.read { db in
            let prepared = try request.makePreparedRequest(db, forSingleResult: false)
            return GeneratedStatement(sql: prepared.statement.sql, values: prepared.arguments.values.map { $0.storageValueForOracle }).literalSQL
        }
        try startValueWatch(
            WatchSpec(target: .view(query: label, tableKeys: tableKeys), label: label, watchesSchema: true),
            truth: { db in try Snapshot.query(db.sqliteConnection!, truthSQL).canonicalRows }
        ) { db in
            try Row.fetchAll(db, request).map { canonical($0.unadapted) }
        }
    }

    /// A value observation of `fetch`, checked against `truth`, which also tells whether
    /// a transaction changed what it watches.
    private func startValueWatch(
        _ spec: WatchSpec, truth: @escaping @Sendable (Database) throws -> [String],
        fetch: @escaping @Sendable (Database) throws -> [String]
    ) throws {
        guard case .view(let query, _) = spec.target else { return }
        associationTruths[query] = truth
        let watch = ValueWatch(spec: spec, fetch: truth)
        watch.cancellable = ValueObservation.tracking(fetch).start(
            in: writer, scheduling: .async(onQueue: deliveryQueue),
            onError: { [errors = watch.errors] error in
                errors.withLock { $0.append("\(error)") }
            },
            onChange: { [values = watch.values] value in
                values.withLock { $0.append(value) }
            })
        valueWatches.append(watch)
    }
}

/// The index, or an oracle error when the ground truth lacks the column.
private func requiredIndex(_ index: Int?) throws -> Int {
    guard let index else { throw OracleError("the ground truth lacks a column of the association") }
    return index
}
