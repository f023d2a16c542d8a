/// When `fetchOne` needs no `LIMIT 1`, as GRDB decides it: the request has no join, and
/// either its filter makes a unique key of its table equal to values, or it selects an
/// aggregate without grouping. Such a request yields one row at most already.
extension QueryInterfaceRequest {
    func expectsSingleResult(_ db: Database, selection: [SQLSelection], predicate: SQLExpression?) throws -> Bool {
        guard joins.isEmpty else { return false }
        if groupings.isEmpty && !groupsByPrimaryKey, selectsAggregate(selection) {
            return true
        }
        guard let predicate else { return false }
        let identifying = identifyingColumns(predicate.node)
        guard !identifying.isEmpty else { return false }
        return try db.uniqueKeys(of: tableName).contains { identifying.isSuperset(of: $0) }
    }

    /// The columns of the request's table that `node` makes equal to values.
    private func identifyingColumns(_ node: SQLExpression.Node) -> Set<String> {
        switch node {
        case .infix("AND", let lhs, let rhs):
            return identifyingColumns(lhs).union(identifyingColumns(rhs))
        case .infix(let op, let lhs, let rhs) where op == "=" || op == "IS":
            if let column = ownColumn(lhs), case .value = rhs { return [column] }
            if let column = ownColumn(rhs), case .value = lhs { return [column] }
            return []
        case .collated(let node, _):
            return identifyingColumns(node)
        default:
            return []
        }
    }

    private func ownColumn(_ node: SQLExpression.Node) -> String? {
        switch node {
        case .column(let name): return name.lowercased()
        case .qualifiedColumn(let alias, let name) where alias === self.alias: return name.lowercased()
        default: return nil
        }
    }

    /// Whether `selection` holds an aggregate function: without `GROUP BY`, SQLite then
    /// makes one row of the whole table (`SELECT MAX("age") + 1`).
    func selectsAggregate(_ selection: [SQLSelection]) -> Bool {
        selection.contains { $0.countableExpression.map { Self.isAggregate($0.node) } ?? false }
    }

    /// Whether `node` holds an aggregate function, outside of subqueries.
    private static func isAggregate(_ node: SQLExpression.Node) -> Bool {
        switch node {
        case .countAll, .countDistinct, .filteredAggregate: return true
        case .function(let name, let arguments):
            // MAX and MIN of several arguments are scalar functions.
            let name = name.uppercased()
            if aggregateFunctions.contains(name) && (arguments.count == 1 || (name != "MAX" && name != "MIN")) { return true }
            return arguments.contains(where: isAggregate)
        case .prefix(_, let operand), .collated(let operand, _): return isAggregate(operand)
        case .infix(_, let lhs, let rhs): return isAggregate(lhs) || isAggregate(rhs)
        case .joined(_, let operands): return operands.contains(where: isAggregate)
        case .inList(let operand, let list, _): return isAggregate(operand) || list.contains(where: isAggregate)
        case .like(let operand, let pattern, let escape, _): return [operand, pattern, escape].contains(where: isAggregate)
        case .inSubquery(let operand, _, _): return isAggregate(operand)
        case .column, .qualifiedColumn, .value, .literal, .atom, .exists, .subquery, .existsSubquery: return false
        }
    }
}

private let aggregateFunctions: Set<String> = ["COUNT", "MAX", "MIN", "SUM", "AVG", "TOTAL", "GROUP_CONCAT"]

extension Database {
    /// The unique keys of `table` (its primary key, the rowid, unique indexes), each its
    /// lowercased columns in the key's order; none for a view or a missing table. Cached
    /// with the schema, and not recorded in a value observation's region.
    func uniqueKeys(of table: String) throws -> [[String]] {
        let key = table.lowercased()
        if let keys = schemaCache.uniqueKeys[key] { return keys }
        // (With the cached schema reads and PRAGMA statements only: `tableExists` and
        // `indexes(on:)` list the schemas, which drops the schema cache.)
        let keys: [[String]] = try withoutRecordingReads {
            guard try !isView(table), let primaryKey = try? primaryKey(table) else { return [] }
            var keys = [primaryKey.columns.map { $0.lowercased() }]
            if !primaryKey.isWithoutRowID { keys.append(["rowid"]) }
            for index in try Row.fetchAll(self, sql: "PRAGMA index_list(\(table.quotedDatabaseIdentifier))") {
                guard try index.decode(Bool.self, forColumn: "unique") else { continue }
                let name = try index.decode(String.self, forColumn: "name")
                let columns = try Row.fetchAll(self, sql: "PRAGMA index_info(\(name.quotedDatabaseIdentifier))")
                    .map { try $0.decodeIfPresent(String.self, forColumn: "name") }
                // (A NULL name is an expression: such an index is no unique key of columns.)
                guard !columns.contains(nil) else { continue }
                keys.append(columns.compactMap { $0?.lowercased() })
            }
            return keys.filter { !$0.isEmpty }
        }
        schemaCache.uniqueKeys[key] = keys
        return keys
    }
}
