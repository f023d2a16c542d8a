/// When `fetchOne` needs no `LIMIT 1`, as GRDB decides it: the request has no join, and
/// either its filter makes a unique key of its table equal to values, or it selects an
/// aggregate without grouping. Such a request yields one row at most already.
extension QueryInterfaceRequest {
    func expectsSingleResult(_ db: Database, selection: [SQLSelection]) throws -> Bool {
        guard joins.isEmpty else { return false }
        if groupings.isEmpty && !groupsByPrimaryKey,
            selection.contains(where: { $0.countableExpression.map { Self.isAggregate($0.node) } ?? false })
        {
            return true
        }
        guard try db.tableExists(tableName) else { return false }
        let identifying = try whereTerms(db).reduce(into: Set<String>()) { columns, term in
            columns.formUnion(identifyingColumns(term.node))
        }
        return try !identifying.isEmpty && db.table(tableName, hasUniqueKey: identifying)
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
        case .column(let name): return name
        case .qualifiedColumn(let alias, let name) where alias === self.alias: return name
        default: return nil
        }
    }

    private static func isAggregate(_ node: SQLExpression.Node) -> Bool {
        switch node {
        case .countAll, .countDistinct, .filteredAggregate: return true
        // MAX and MIN of several arguments are scalar functions.
        case .function(let name, let arguments):
            let name = name.uppercased()
            return aggregateFunctions.contains(name) && (arguments.count == 1 || (name != "MAX" && name != "MIN"))
        default: return false
        }
    }
}

private let aggregateFunctions: Set<String> = ["COUNT", "MAX", "MIN", "SUM", "AVG", "TOTAL", "GROUP_CONCAT"]
