/// The SQL of a request with joined associations (or an aliased table): the name of each
/// table in the SQL, the selection, the `JOIN` clauses, the orderings, and the layout of
/// fetched rows in scopes.
///
/// The parts are the request's table, then each joined association, depth first: the
/// order of the selected columns, of the `JOIN` clauses, and of the orderings.
struct JoinPlan {
    struct Part {
        /// The join, nil for the request's own table.
        var join: AssociationJoin?
        var request: QueryInterfaceRequest<Row>
        /// The index of the part this one is joined to.
        var parentIndex: Int?
        /// The quoted name of the table in the SQL.
        var sqlName = ""
    }

    private(set) var parts: [Part]
    private(set) var aliasNames: [ObjectIdentifier: String] = [:]
    /// The selected parts, in the order of their columns: each included part's own
    /// columns, then its annotations in the order they were made, then the parts it
    /// includes, depth first.
    private(set) var selectionOrder: [Int] = []
    /// The part whose columns (its own, or its scope's) hold those of each part.
    private var owners: [Int] = []

    /// The plan of `request`, nil when it has no joins and its table is not named by an
    /// alias: its SQL stays unqualified.
    init?<T>(_ request: QueryInterfaceRequest<T>) {
        guard request.joins.contains(where: { $0.kind != .all }) || request.alias != nil else { return nil }
        parts = [Part(join: nil, request: request.asRequest(of: Row.self), parentIndex: nil)]
        Self.collect(request.joins, parentIndex: 0, into: &parts)
        nameParts()
        owners = Self.owners(parts)
        selectionOrder = orderSelection()
        // An unnamed alias of a request without joins leaves the SQL as it is: its
        // columns unqualified, as GRDB writes them.
        if parts.count == 1, request.alias?.userName == nil {
            guard let alias = request.alias else { return nil }
            aliasNames[ObjectIdentifier(alias)] = ""
            parts[0].sqlName = request.tableName.quotedDatabaseIdentifier
            qualifiesColumns = false
        }
    }

    /// The common table expressions of the request, then those of its joined associations
    /// that it does not define: one `WITH` clause serves them all.
    var commonTableExpressions: [CTEDefinition] {
        var definitions = parts[0].request.commonTableExpressions
        var names = Set(definitions.map { $0.tableName.lowercased() })
        for part in parts.dropFirst() {
            for definition in part.request.commonTableExpressions where names.insert(definition.tableName.lowercased()).inserted {
                definitions.append(definition)
            }
        }
        return definitions
    }

    /// False when the SQL names one table, unaliased: its columns need no qualifier.
    private var qualifiesColumns = true

    /// The qualifier of the columns of the request's own table.
    private var rootQualifier: String? { qualifiesColumns ? parts[0].sqlName : nil }

    private static func collect(_ joins: [AssociationJoin], parentIndex: Int, into parts: inout [Part]) {
        for join in joins where join.kind != .all {
            parts.append(Part(join: join, request: join.association.destination, parentIndex: parentIndex))
            collect(join.association.destination.joins, parentIndex: parts.count - 1, into: &parts)
        }
    }

    /// Each part's owner: itself when included; for an annotation, the owner of the
    /// request that was annotated (above the pivots of an annotation through them); else
    /// the owner of the part it is joined to.
    private static func owners(_ parts: [Part]) -> [Int] {
        var owners: [Int] = []
        for (index, part) in parts.enumerated() {
            guard var parent = part.parentIndex, let join = part.join, join.selection != .scoped else {
                owners.append(index)
                continue
            }
            if join.selection == .annotation {
                for _ in 0..<join.annotationLevels { parent = parts[parent].parentIndex ?? parent }
            }
            owners.append(owners[parent])
        }
        return owners
    }

    private func orderSelection() -> [Int] {
        var order: [Int] = []
        func select(_ owner: Int) {
            order.append(owner)
            let owned = parts.indices.filter { $0 != owner && owners[$0] == owner }
            let annotations = owned.filter { parts[$0].join?.selection == .annotation }
            order += annotations.sorted { parts[$0].join!.annotationRank < parts[$1].join!.annotationRank }
            // The included parts whose nearest included ancestor is `owner`.
            for index in parts.indices where parts[index].join?.selection == .scoped {
                if let parent = parts[index].parentIndex, owners[parent] == owner { select(index) }
            }
        }
        select(0)
        return order
    }

    /// Each part is named after its alias, or its table; tables that appear more than
    /// once are numbered: `"employee1"`, `"employee2"`.
    private mutating func nameParts() {
        var counts: [String: Int] = [:]
        for part in parts {
            counts[(part.request.alias?.userName ?? part.request.tableName).lowercased(), default: 0] += 1
        }
        var numbers: [String: Int] = [:]
        for index in parts.indices {
            let request = parts[index].request
            var name = request.alias?.userName ?? request.tableName
            if request.alias?.userName == nil, counts[name.lowercased(), default: 0] > 1 {
                let number = numbers[name.lowercased(), default: 0] + 1
                numbers[name.lowercased()] = number
                name += String(number)
            }
            parts[index].sqlName = name.quotedDatabaseIdentifier
            if let alias = request.alias { aliasNames[ObjectIdentifier(alias)] = parts[index].sqlName }
            for alias in parts[index].join?.mergedAliases ?? [] { aliasNames[ObjectIdentifier(alias)] = parts[index].sqlName }
        }
    }

    /// Prepares `context` to write the parts of the request's own table.
    func enter(_ db: Database, _ context: inout SQLGenerationContext) {
        context.aliasNames = aliasNames
        context.qualifier = rootQualifier
        context.database = db
        for part in parts {
            if let alias = part.request.alias { context.aliasTables[ObjectIdentifier(alias)] = part.request.tableName }
            for alias in part.join?.mergedAliases ?? [] { context.aliasTables[ObjectIdentifier(alias)] = part.request.tableName }
        }
    }

    /// ` "custom"` after the table name, when the table is named otherwise in the SQL.
    func tableAliasSQL(_ index: Int) -> String {
        parts[index].sqlName == parts[index].request.tableName.quotedDatabaseIdentifier ? "" : " " + parts[index].sqlName
    }

    /// The selected columns of the joined parts, each with the comma that precedes it.
    func joinedSelectionSQL(_ db: Database, _ context: inout SQLGenerationContext) throws -> String {
        var sql = ""
        for index in selectionOrder.dropFirst() {
            let part = parts[index]
            context.qualifier = part.sqlName
            for selection in part.request.selection {
                for resolved in try selection.resolved(db, table: part.request.tableName) { sql += ", " + resolved.sql(&context) }
            }
        }
        // (A request that selects none of its own columns starts with a comma here.)
        context.qualifier = rootQualifier
        return sql
    }

    /// The `JOIN` clauses.
    func joinSQL(_ db: Database, _ context: inout SQLGenerationContext) throws -> String {
        var sql = ""
        for index in parts.indices.dropFirst() {
            let part = parts[index]
            guard let join = part.join, let parentIndex = part.parentIndex else { continue }
            let parentName = parts[parentIndex].sqlName
            var terms: [SQLExpression] = try join.association.link.columnPairs(db).map { pair in
                SQLExpression(
                    .literal(
                        part.sqlName + "." + pair.destination.quotedDatabaseIdentifier + " = "
                            + parentName + "." + pair.origin.quotedDatabaseIdentifier, []))
            }
            context.qualifier = part.sqlName
            terms += try part.request.whereTerms(db)
            sql += join.kind == .required ? " JOIN " : " LEFT JOIN "
            sql += part.request.tableName.quotedDatabaseIdentifier + tableAliasSQL(index)
            if !terms.isEmpty { sql += " ON " + QueryInterfaceRequest<Row>.conjunction(terms).sql(&context) }
        }
        context.qualifier = rootQualifier
        return sql
    }

    /// The orderings of the joined parts, written.
    func joinedOrderingSQL(_ db: Database, _ context: inout SQLGenerationContext, reversed: Bool) throws -> [String] {
        var result: [String] = []
        // A reversed request or association reverses the orderings of what it includes.
        var reversal = [reversed]
        for part in parts.dropFirst() {
            reversal.append(reversal[part.parentIndex!] != part.request.isReversed)
            context.qualifier = part.sqlName
            for ordering in try part.request.effectiveOrderings(db, reversed: reversal.last!) {
                result.append(ordering.sql(&context))
            }
        }
        context.qualifier = rootQualifier
        return result
    }

    /// The layout of fetched rows: the request's own columns and annotations in the row,
    /// each included association's columns in a scope named after its key. Nil when no
    /// association is included.
    func rowAdapter(_ db: Database) throws -> _AssociationRowAdapter? {
        guard parts.contains(where: { $0.join?.selection == .scoped }) else { return nil }
        // The scope of each part: its own when included, else the one of the part it is
        // joined to (for annotations, and for associations included through a join).
        // A joined association without columns still has a scope when one it joins
        // is included: `row.scopes["b"]?.scopes["c"]` (emptied scopes are pruned below).
        var scopeOfPart: [Int] = []
        var scopes: [ScopeLayout] = [ScopeLayout(name: nil, parent: nil)]
        for part in parts {
            let parentScope = part.parentIndex.map { scopeOfPart[$0] } ?? 0
            var scope = parentScope
            if let join = part.join, join.selection != .annotation {
                scopes.append(ScopeLayout(name: join.scopeName, parent: parentScope, isIncluded: join.selection == .scoped))
                scope = scopes.count - 1
            }
            scopeOfPart.append(scope)
        }
        var column = 0
        for index in selectionOrder {
            let count = try parts[index].request.selectedColumnCount(db)
            scopes[scopeOfPart[owners[index]]].indexes += column..<(column + count)
            column += count
        }
        return _AssociationRowAdapter(root: ScopeLayout.tree(scopes, 0), columnCount: column)
    }
}

/// A scope of a fetched row, while the plan lays them out.
private struct ScopeLayout {
    var name: String?
    var parent: Int?
    /// Whether the association is included (an empty selection still makes a scope).
    var isIncluded = false
    var indexes: [Int] = []

    /// The scope at `index` and its descendants, without the scopes of joined
    /// associations that include nothing.
    static func tree(_ scopes: [ScopeLayout], _ index: Int) -> _AssociationRowAdapter.Node {
        var children: [String: _AssociationRowAdapter.Node] = [:]
        for child in scopes.indices where scopes[child].parent == index {
            let node = tree(scopes, child)
            if !node.isEmpty || scopes[child].isIncluded { children[scopes[child].name!] = node }
        }
        return _AssociationRowAdapter.Node(indexes: scopes[index].indexes, scopes: children)
    }
}

/// The row adapter of a request that includes associations: columns by index, in nested
/// scopes.
struct _AssociationRowAdapter: RowAdapter {
    struct Node: Sendable {
        var indexes: [Int]
        var scopes: [String: Node]

        var isEmpty: Bool { indexes.isEmpty && scopes.isEmpty }
    }

    let root: Node
    /// The number of columns the request selects, when the layout was made from the
    /// schema.
    let columnCount: Int

    func layout(forColumns columns: [String]) throws -> RowAdapterLayout {
        // Other columns: SQLite compiled the statement again for another schema. The
        // indexes no longer say which table each column comes from.
        guard columns.count == columnCount else {
            throw DatabaseError(
                message: """
                    the schema changed while the request ran (\(columns.count) columns where its \
                    associations expected \(columnCount)): run it again
                    """)
        }
        return try Self.layout(root, columns)
    }

    private static func layout(_ node: Node, _ columns: [String]) throws -> RowAdapterLayout {
        try RowAdapterLayout(columns: columns, indexes: node.indexes)
            .withScopes(node.scopes.mapValues { try layout($0, columns) })
    }
}

extension QueryInterfaceRequest {
    /// The number of columns the request's own selection makes.
    func selectedColumnCount(_ db: Database) throws -> Int {
        var count = 0
        for selection in selection {
            switch selection.kind {
            case .allColumns, .qualifiedAllColumns: count += try db.columns(in: tableName).count
            case .expression, .aliased, .literal, .whenConnected: count += 1
            case .allColumnsExcluding, .primaryKey, .whenConnectedList: count += try selection.resolved(db, table: tableName).count
            }
        }
        return count
    }
}
