/// A name for a table in a request, to refer to its columns from other parts of the
/// request: filter players on the color of their team, order books by their author's name.
///
/// ```swift
/// let teamAlias = TableAlias()
/// let request = Player
///     .joining(required: Player.team.aliased(teamAlias))
///     .filter(teamAlias[Column("color")] == "red")
/// // SELECT "player".* FROM "player"
/// // JOIN "team" ON "team"."id" = "player"."teamId"
/// // WHERE "team"."color" = 'red'
/// ```
///
/// An alias without a name is written as its table's name (numbered when the table
/// appears twice in a request); `TableAlias(name: "p")` is written `"p"`. Using an alias
/// that no part of the request is `aliased(_:)` with makes the request throw when it runs.
@dynamicMemberLookup
public final class TableAlias<RowDecoder>: Sendable {
    /// What SQL generation knows of the alias; the same for every copy of a request.
    let identity: TableAliasIdentity

    /// An alias, named `name` in the SQL when a name is given.
    ///
    /// - Parameter name: The name of the table in the SQL, if any.
    public init(name: String? = nil) where RowDecoder == Void {
        identity = TableAliasIdentity(userName: name)
    }

    /// An alias for the table of `record`, named `name` in the SQL when a name is given:
    /// `TableAlias<Player>()` gives access to the record's columns (`alias.score`).
    ///
    /// - Parameters:
    ///   - name: The name of the table in the SQL, if any.
    ///   - record: The record type of the aliased table.
    public init(name: String? = nil, for record: RowDecoder.Type = RowDecoder.self) {
        identity = TableAliasIdentity(userName: name)
    }

    /// Whether the aliased table has a row, in a request that joins it optionally:
    /// `Book.joining(optional: Book.author.aliased(authorAlias)).filter(!authorAlias.exists)`
    /// are the books without author (`WHERE "author"."id" IS NULL`).
    public var exists: SQLExpression { SQLExpression(.exists(identity, negated: false)) }

    /// The column or expression, read from the aliased table: `alias[Column("name")]`.
    public subscript(_ expression: some SQLSpecificExpressible & SQLSelectable & SQLOrderingTerm) -> SQLExpression {
        expression.sqlExpression.qualified(by: identity)
    }

    /// The column named `column` of the aliased table: `alias["name"]`.
    public subscript(_ column: String) -> SQLExpression {
        SQLExpression(.qualifiedColumn(identity, column))
    }

    /// The selection, read from the aliased table: `alias[AllColumns()]` is `"team".*`.
    public subscript(_ selectable: some SQLSelectable) -> SQLSelection {
        selectable.sqlSelection.qualified(by: identity)
    }

    /// The ordering, on the aliased table: `alias[Column("name").desc]`.
    public subscript(_ ordering: some SQLOrderingTerm) -> SQLOrdering {
        ordering.sqlOrdering.qualified(by: identity)
    }
}

extension TableAlias where RowDecoder: TableRecord {
    /// A column of the record's `DatabaseComponents`, read from the aliased table:
    /// `alias.score` for `Player.Columns.score`.
    public subscript<T: SQLSpecificExpressible & SQLSelectable & SQLOrderingTerm>(
        dynamicMember keyPath: KeyPath<RowDecoder.DatabaseComponents, T>
    ) -> SQLExpression {
        self[RowDecoder.databaseComponents[keyPath: keyPath]]
    }
}

/// The identity of a `TableAlias`: what a request's parts and expressions keep of it.
final class TableAliasIdentity: Sendable {
    /// The name given by the user, written as is in the SQL.
    let userName: String?

    init(userName: String?) {
        self.userName = userName
    }
}

extension SQLExpression {
    /// The expression, its plain columns read from the aliased table.
    func qualified(by alias: TableAliasIdentity) -> SQLExpression {
        var expression = self
        expression.node = Self.qualified(node, alias)
        return expression
    }

    private static func qualified(_ node: Node, _ alias: TableAliasIdentity) -> Node {
        switch node {
        case .column(let name): return .qualifiedColumn(alias, name)
        // (A subquery's columns are its own tables'.)
        case .qualifiedColumn, .value, .literal, .atom, .exists, .countAll, .subquery, .existsSubquery: return node
        case let .inSubquery(operand, subquery, negated): return .inSubquery(qualified(operand, alias), subquery, negated: negated)
        case let .prefix(op, operand): return .prefix(op, qualified(operand, alias))
        case let .infix(op, lhs, rhs): return .infix(op, qualified(lhs, alias), qualified(rhs, alias))
        case let .function(name, arguments): return .function(name, arguments.map { qualified($0, alias) })
        case let .collated(operand, collation): return .collated(qualified(operand, alias), collation)
        case .countDistinct(let operand): return .countDistinct(qualified(operand, alias))
        case let .inList(operand, list, negated):
            return .inList(qualified(operand, alias), list.map { qualified($0, alias) }, negated: negated)
        case let .filteredAggregate(name, arguments, filter):
            return .filteredAggregate(name, arguments.map { qualified($0, alias) }, filter: qualified(filter, alias))
        case let .joined(op, operands): return .joined(op, operands.map { qualified($0, alias) })
        case let .like(operand, pattern, escape, negated):
            return .like(qualified(operand, alias), qualified(pattern, alias), escape: qualified(escape, alias), negated: negated)
        }
    }
}

extension SQLSelection {
    /// The selection, read from the aliased table.
    func qualified(by alias: TableAliasIdentity) -> SQLSelection {
        switch kind {
        case .allColumns, .qualifiedAllColumns: return SQLSelection(.qualifiedAllColumns(alias))
        case .expression(let expression): return SQLSelection(.expression(expression.qualified(by: alias)))
        case let .aliased(expression, name): return SQLSelection(.aliased(expression.qualified(by: alias), name))
        case .literal: return self
        case .whenConnected(let make): return SQLSelection(.whenConnected { try make($0).qualified(by: alias) })
        case .allColumnsExcluding, .primaryKey: return self
        case .whenConnectedList(let make): return SQLSelection(.whenConnectedList { try make($0).map { $0.qualified(by: alias) } })
        }
    }
}

extension SQLOrdering {
    /// The ordering, on the aliased table.
    func qualified(by alias: TableAliasIdentity) -> SQLOrdering {
        guard !isLiteral else { return self }
        var ordering = self
        ordering.expression = expression.qualified(by: alias)
        return ordering
    }
}
