/// A value computed from the records of a to-many association, for each record of a
/// request: how many books an author has, the best score of a team's players.
///
/// ```swift
/// struct AuthorInfo: FetchableRecord, Decodable {
///     var author: Author
///     var bookCount: Int
/// }
/// // SELECT "author".*, COUNT(DISTINCT "book"."id") AS "bookCount" FROM "author"
/// // LEFT JOIN "book" ON "book"."authorId" = "author"."id"
/// // GROUP BY "author"."id"
/// let infos = try Author.annotated(with: Author.books.count).asRequest(of: AuthorInfo.self).fetchAll(db)
/// // Authors of more than two books:
/// let prolific = try Author.having(Author.books.count > 2).fetchAll(db)
/// ```
///
/// Aggregates are named after the association's key: `count` is `bookCount`, `isEmpty`
/// `hasNoBook`, `average(Column("price"))` `averageBookPrice`, `max` and `min`
/// `maxBookPrice` and `minBookPrice`, `sum` and `total` `bookPriceSum`. `forKey(_:)`
/// names one otherwise; aggregates combined with operators (`count > 2`) have no name.
public struct AssociationAggregate<RowDecoder>: Sendable {
    /// The associations the aggregate reads, each named by an alias in the request.
    var associations: [_SQLAssociation]
    /// The aggregate's expression, made with the connection (a count needs the primary
    /// key of the counted table).
    var expression: @Sendable (Database) throws -> SQLExpression
    /// The name of the selected column.
    var key: String?
    /// For `isEmpty`, the count it compares with zero: `!isEmpty` and `isEmpty == false`
    /// are `count > 0`, as GRDB writes them.
    var emptinessCount: (@Sendable (Database) throws -> SQLExpression)?

    /// `isEmpty`, or its negation, when this aggregate is `isEmpty`.
    func emptiness(negated: Bool) -> Self? {
        guard let count = emptinessCount else { return nil }
        guard negated else { return self }
        return AssociationAggregate(associations: associations, expression: { db in try count(db) > 0 }, key: nil)
    }

    /// The aggregate, selected under the name `key`.
    ///
    /// - Parameter key: The name of the selected column.
    public func forKey(_ key: String) -> Self {
        var aggregate = self
        aggregate.key = key
        return aggregate
    }

    /// The aggregate, selected under the name of a coding key.
    ///
    /// - Parameter key: The coding key whose string value names the column.
    public func forKey(_ key: some CodingKey) -> Self {
        forKey(key.stringValue)
    }

    /// An aggregate of the associations of this one and `other`, with an expression made
    /// of both; unnamed.
    func combined(with other: Self, _ combine: @escaping @Sendable (SQLExpression, SQLExpression) -> SQLExpression) -> Self {
        let lhs = expression
        let rhs = other.expression
        return AssociationAggregate(
            associations: associations + other.associations,
            expression: { db in try combine(lhs(db), rhs(db)) }, key: nil)
    }

    /// An aggregate with this one's associations and an expression made of its own;
    /// unnamed.
    func mapped(keepingKey: Bool = false, _ transform: @escaping @Sendable (SQLExpression) -> SQLExpression) -> Self {
        let base = expression
        return AssociationAggregate(associations: associations, expression: { db in try transform(base(db)) }, key: keepingKey ? key : nil)
    }
}

extension AssociationToMany {
    /// The association, with an alias for its destination, and that alias.
    private var aliasedAssociation: (_SQLAssociation, TableAliasIdentity) {
        var association = _sqlAssociation
        let alias = association.destination.alias ?? TableAliasIdentity(userName: nil)
        association.destination.alias = alias
        return (association, alias)
    }

    /// The key of the association, in the singular: `"book"` for `hasMany(Book.self)`.
    private var singularKey: String {
        _sqlAssociation.key.name(singular: true, isToMany: true)
    }

    /// The aggregate of `function` applied to `expression` of the associated table.
    private func aggregate(
        _ function: String, _ expression: some SQLSpecificExpressible,
        name: (_ key: String, _ column: String) -> String
    ) -> AssociationAggregate<OriginRowDecoder> {
        let (association, alias) = aliasedAssociation
        let qualified = expression.sqlExpression.qualified(by: alias)
        var key: String?
        if case .column(let column) = expression.sqlExpression.node { key = name(singularKey, column) }
        return AssociationAggregate(
            associations: [association],
            expression: { _ in SQLExpression(.function(function, [qualified.node])) }, key: key)
    }

    /// The number of associated records: `COUNT(DISTINCT "book"."id")`, named `bookCount`.
    public var count: AssociationAggregate<OriginRowDecoder> {
        let (association, alias) = aliasedAssociation
        let table = association.destination.tableName
        return AssociationAggregate(
            associations: [association],
            expression: { db in
                let primaryKey = try db.primaryKey(table)
                guard let column = primaryKey.rowIDName ?? (primaryKey.columns.count == 1 ? primaryKey.columns[0] : nil) else {
                    throw DatabaseError(message: "table \(table) has a composite primary key: its records cannot be counted with `count`")
                }
                return SQLExpression(.countDistinct(.qualifiedColumn(alias, column)))
            },
            key: singularKey + "Count")
    }

    /// Whether there is no associated record: `COUNT(DISTINCT "book"."id") = 0`, named
    /// `hasNoBook`.
    public var isEmpty: AssociationAggregate<OriginRowDecoder> {
        // One count: each makes its own alias.
        let count = self.count
        var aggregate = count.mapped { $0 == 0 }.forKey("hasNo" + singularKey.uppercasingFirstLetter)
        aggregate.emptinessCount = count.expression
        return aggregate
    }

    /// The average of an expression of the associated records: `AVG("book"."price")`,
    /// named `averageBookPrice` for a column.
    ///
    /// - Parameter expression: An expression of the associated table.
    public func average(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate("AVG", expression) { "average" + $0.uppercasingFirstLetter + $1.uppercasingFirstLetter }
    }

    /// The maximum of an expression of the associated records: `MAX("book"."price")`,
    /// named `maxBookPrice` for a column.
    ///
    /// - Parameter expression: An expression of the associated table.
    public func max(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate("MAX", expression) { "max" + $0.uppercasingFirstLetter + $1.uppercasingFirstLetter }
    }

    /// The minimum of an expression of the associated records: `MIN("book"."price")`,
    /// named `minBookPrice` for a column.
    ///
    /// - Parameter expression: An expression of the associated table.
    public func min(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate("MIN", expression) { "min" + $0.uppercasingFirstLetter + $1.uppercasingFirstLetter }
    }

    /// The sum of an expression of the associated records: `SUM("book"."price")` (NULL
    /// for no record), named `bookPriceSum` for a column.
    ///
    /// - Parameter expression: An expression of the associated table.
    public func sum(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate("SUM", expression) { $0 + $1.uppercasingFirstLetter + "Sum" }
    }

    /// The total of an expression of the associated records: `TOTAL("book"."price")` (0.0
    /// for no record), named `bookPriceSum` for a column.
    ///
    /// - Parameter expression: An expression of the associated table.
    public func total(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate("TOTAL", expression) { $0 + $1.uppercasingFirstLetter + "Sum" }
    }
}

extension AssociationToMany where RowDecoder: TableRecord {
    /// The average of an expression of the destination's columns: `Team.players.average { $0.score }`.
    ///
    /// - Parameter expression: A closure of the destination's `DatabaseComponents`.
    public func average(_ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows -> AssociationAggregate<
        OriginRowDecoder
    > {
        try average(expression(RowDecoder.databaseComponents))
    }

    /// The maximum of an expression of the destination's columns: `Team.players.max { $0.score }`.
    ///
    /// - Parameter expression: A closure of the destination's `DatabaseComponents`.
    public func max(_ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows -> AssociationAggregate<
        OriginRowDecoder
    > {
        try max(expression(RowDecoder.databaseComponents))
    }

    /// The minimum of an expression of the destination's columns: `Team.players.min { $0.score }`.
    ///
    /// - Parameter expression: A closure of the destination's `DatabaseComponents`.
    public func min(_ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows -> AssociationAggregate<
        OriginRowDecoder
    > {
        try min(expression(RowDecoder.databaseComponents))
    }

    /// The sum of an expression of the destination's columns: `Team.players.sum { $0.score }`.
    ///
    /// - Parameter expression: A closure of the destination's `DatabaseComponents`.
    public func sum(_ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows -> AssociationAggregate<
        OriginRowDecoder
    > {
        try sum(expression(RowDecoder.databaseComponents))
    }

    /// The total of an expression of the destination's columns: `Team.players.total { $0.score }`.
    ///
    /// - Parameter expression: A closure of the destination's `DatabaseComponents`.
    public func total(_ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows -> AssociationAggregate<
        OriginRowDecoder
    > {
        try total(expression(RowDecoder.databaseComponents))
    }
}

extension String {
    /// `"book"` → `"Book"`.
    var uppercasingFirstLetter: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}

extension QueryInterfaceRequest {
    /// The request, joined to the associations of `aggregate`, grouped by primary key
    /// unless it is grouped otherwise.
    private func joiningAggregated(_ aggregate: AssociationAggregate<RowDecoder>) -> Self {
        var request = self
        for association in aggregate.associations {
            request = request.joined(association, .optional, .none)
        }
        if request.groupings.isEmpty { request.groupsByPrimaryKey = true }
        return request
    }

    /// Selects aggregates of associations, in addition to the selected columns:
    /// `Author.annotated(with: Author.books.count)`.
    ///
    /// - Parameter aggregates: Aggregates of associations of the request's records.
    public func annotated(with aggregates: AssociationAggregate<RowDecoder>...) -> Self {
        annotated(with: aggregates)
    }

    /// Selects aggregates of associations, in addition to the selected columns.
    ///
    /// - Parameter aggregates: Aggregates of associations of the request's records.
    public func annotated(with aggregates: [AssociationAggregate<RowDecoder>]) -> Self {
        var request = self
        for aggregate in aggregates {
            request = request.joiningAggregated(aggregate)
            let expression = aggregate.expression
            let key = aggregate.key
            request.selection.append(
                SQLSelection(
                    .whenConnected { db in
                        let value = try expression(db)
                        return key.map { SQLSelection(.aliased(value, $0)) } ?? value.sqlSelection
                    }))
        }
        return request
    }

    /// Keeps the records whose associations satisfy a condition on their aggregates:
    /// `Author.having(Author.books.count > 2)`.
    ///
    /// - Parameter predicate: A condition on aggregates of associations.
    public func having(_ predicate: AssociationAggregate<RowDecoder>) -> Self {
        var request = joiningAggregated(predicate)
        request.havingsWhenConnected.append(predicate.expression)
        return request
    }
}

extension TableRecord {
    /// See `QueryInterfaceRequest.annotated(with:)`.
    ///
    /// - Parameter aggregates: Aggregates of associations of this record type.
    public static func annotated(with aggregates: AssociationAggregate<Self>...) -> QueryInterfaceRequest<Self> {
        all().annotated(with: aggregates)
    }

    /// See `QueryInterfaceRequest.having(_:)`.
    ///
    /// - Parameter predicate: A condition on aggregates of associations.
    public static func having(_ predicate: AssociationAggregate<Self>) -> QueryInterfaceRequest<Self> {
        all().having(predicate)
    }
}
