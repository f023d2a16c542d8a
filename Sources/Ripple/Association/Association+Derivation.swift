// The requests that an association stands for: filtered, ordered, selected, aliased, and
// joined to other associations, as `QueryInterfaceRequest` is.

extension Association {
    func withDestination(_ update: (inout QueryInterfaceRequest<Row>) -> Void) -> Self {
        var association = self
        update(&association._sqlAssociation.destination)
        return association
    }

    /// The association, under another key: the name of its scope in fetched rows, and of
    /// the property that `Decodable` records decode from it.
    ///
    /// - Parameter key: The key.
    public func forKey(_ key: String) -> Self {
        var association = self
        association._sqlAssociation.key = .fixed(key)
        return association
    }

    /// The association, under the key of a coding key.
    ///
    /// - Parameter codingKey: The coding key whose string value is the key.
    public func forKey(_ codingKey: some CodingKey) -> Self {
        forKey(codingKey.stringValue)
    }

    /// The association, its table named by `alias` in the SQL, so that other parts of the
    /// request can refer to its columns.
    ///
    /// - Parameter alias: The alias.
    public func aliased<T>(_ alias: TableAlias<T>) -> Self {
        withDestination { $0.alias = alias.identity }
    }

    /// The association, with a common table expression that its filters or selection can
    /// read: in the `WITH` clause of the request that joins it, or of its own query when
    /// it is prefetched (`including(all:)`). An expression of the same name that the
    /// association already embeds is replaced.
    ///
    /// ```swift
    /// let cte = CommonTableExpression(named: "winner", sql: "SELECT MAX(score) FROM player")
    /// let association = Team.players.with(cte).filter(Column("score") == cte.all())
    /// let request = Team.including(all: association)
    /// ```
    ///
    /// - Parameter cte: A common table expression.
    public func with<T>(_ cte: CommonTableExpression<T>) -> Self {
        withDestination { $0 = $0.with(cte) }
    }

    /// Keeps the associated rows that satisfy `predicate` (in the join's `ON` clause).
    ///
    /// - Parameter predicate: A condition on the destination table's columns.
    public func filter(_ predicate: some SQLExpressible) -> Self {
        withDestination { $0 = $0.filter(predicate) }
    }

    /// Keeps the associated row of this primary key.
    ///
    /// - Parameter key: A primary key value.
    public func filter(key: some DatabaseValueConvertible) -> Self {
        withDestination { $0 = $0.filter(key: key) }
    }

    /// Keeps the associated rows of these primary keys.
    ///
    /// - Parameter keys: Primary key values.
    public func filter<S: Sequence>(keys: S) -> Self where S.Element: DatabaseValueConvertible {
        withDestination { $0 = $0.filter(keys: keys) }
    }

    /// Keeps the associated rows that satisfy an SQL condition.
    ///
    /// - Parameters:
    ///   - sql: An SQL condition.
    ///   - arguments: The values of its parameters.
    public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        withDestination { $0 = $0.filter(sql: sql, arguments: arguments) }
    }

    /// Orders the request by these orderings of the associated table, after the request's
    /// own orderings.
    ///
    /// - Parameter orderings: Orderings of the destination table's columns.
    public func order(_ orderings: any SQLOrderingTerm...) -> Self {
        withDestination { $0.orderings = orderings.map(\.sqlOrdering) }
    }

    /// Orders the request by an SQL ordering of the associated table.
    ///
    /// - Parameters:
    ///   - sql: An SQL ordering.
    ///   - arguments: The values of its parameters.
    public func order(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        withDestination { $0 = $0.order(sql: sql, arguments: arguments) }
    }

    /// Orders the request by the primary key of the associated table.
    public func orderByPrimaryKey() -> Self {
        withDestination { $0 = $0.orderByPrimaryKey() }
    }

    /// Reverses the orderings of the associated table.
    public func reversed() -> Self {
        withDestination { $0 = $0.reversed() }
    }

    /// Keeps no associated row.
    public func none() -> Self {
        withDestination { $0 = $0.none() }
    }

    /// Removes duplicate associated rows: `SELECT DISTINCT` in the query of a prefetched
    /// association.
    public func distinct() -> Self {
        withDestination { $0 = $0.distinct() }
    }

    /// Removes the orderings of the associated table.
    public func unordered() -> Self {
        withDestination { $0.orderings = [] }
    }

    /// Selects these columns of the associated table instead of all.
    ///
    /// - Parameter selection: Columns or expressions of the destination table.
    public func select(_ selection: any SQLSelectable...) -> Self {
        withDestination { $0 = $0.select(selection) }
    }

    /// Selects these columns of the associated table instead of all.
    ///
    /// - Parameter selection: Columns or expressions of the destination table.
    public func select(_ selection: [any SQLSelectable]) -> Self {
        withDestination { $0 = $0.select(selection) }
    }

    /// Selects these columns of the associated table, in addition to the selected ones.
    ///
    /// - Parameter selection: Columns or expressions of the destination table.
    public func annotated(with selection: any SQLSelectable...) -> Self {
        withDestination { $0.selection += selection.map(\.sqlSelection) }
    }

    /// Includes another association of the destination, whose rows must exist.
    ///
    /// - Parameter association: An association from this association's destination.
    public func including<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        withDestination { $0 = $0.joined(association._sqlAssociation, .required, .scoped) }
    }

    /// Includes all the records of a to-many association of the destination, fetched by
    /// one more query (see `QueryInterfaceRequest.including(all:)`).
    ///
    /// - Parameter association: A to-many association from this association's destination.
    public func including<A: AssociationToMany>(all association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        withDestination { $0 = $0.joined(association._sqlAssociation, .all, .scoped) }
    }

    /// Includes another association of the destination, whose rows may be missing.
    ///
    /// - Parameter association: An association from this association's destination.
    public func including<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        withDestination { $0 = $0.joined(association._sqlAssociation, .optional, .scoped) }
    }

    /// Joins another association of the destination, whose rows must exist, without
    /// selecting it.
    ///
    /// - Parameter association: An association from this association's destination.
    public func joining<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        withDestination { $0 = $0.joined(association._sqlAssociation, .required, .none) }
    }

    /// Joins another association of the destination, whose rows may be missing, without
    /// selecting it.
    ///
    /// - Parameter association: An association from this association's destination.
    public func joining<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        withDestination { $0 = $0.joined(association._sqlAssociation, .optional, .none) }
    }

    /// Selects the columns of another association of the destination, whose rows must
    /// exist, in the destination's scope.
    ///
    /// - Parameter association: An association from this association's destination.
    public func annotated<A: Association>(withRequired association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        withDestination { $0 = $0.joined(association._sqlAssociation, .required, .annotation) }
    }

    /// Selects the columns of another association of the destination, whose rows may be
    /// missing, in the destination's scope.
    ///
    /// - Parameter association: An association from this association's destination.
    public func annotated<A: Association>(withOptional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        withDestination { $0 = $0.joined(association._sqlAssociation, .optional, .annotation) }
    }
}

extension Association where RowDecoder: TableRecord {
    /// Keeps the associated rows that satisfy a condition on the destination's columns:
    /// `Book.author.filter { $0.country == "FR" }`.
    ///
    /// - Parameter predicate: A closure of the destination's `DatabaseComponents`.
    public func filter(_ predicate: (RowDecoder.DatabaseComponents) throws -> some SQLExpressible) rethrows -> Self {
        filter(try predicate(RowDecoder.databaseComponents))
    }

    /// Orders the request by an ordering of the destination's columns.
    ///
    /// - Parameter ordering: A closure of the destination's `DatabaseComponents`.
    public func order(_ ordering: (RowDecoder.DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> Self {
        order(try ordering(RowDecoder.databaseComponents))
    }

    /// Orders the request by orderings of the destination's columns.
    ///
    /// - Parameter orderings: A closure of the destination's `DatabaseComponents`.
    public func order(_ orderings: (RowDecoder.DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> Self {
        let terms = try orderings(RowDecoder.databaseComponents)
        return withDestination { $0.orderings = terms.map(\.sqlOrdering) }
    }

    /// Selects one column or expression of the destination: `Player.team.select { $0.name }`.
    ///
    /// - Parameter selection: A closure of the destination's `DatabaseComponents`.
    public func select(_ selection: (RowDecoder.DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        select([try selection(RowDecoder.databaseComponents)])
    }

    /// Selects columns or expressions of the destination: `Player.team.select { [$0.id, $0.name] }`.
    ///
    /// - Parameter selection: A closure of the destination's `DatabaseComponents`.
    public func select(_ selection: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        select(try selection(RowDecoder.databaseComponents))
    }

    /// Selects columns or expressions of the destination, in addition to the selected ones.
    ///
    /// - Parameter selection: A closure of the destination's `DatabaseComponents`.
    public func annotated(with selection: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        let terms = try selection(RowDecoder.databaseComponents)
        return withDestination { $0.selection += terms.map(\.sqlSelection) }
    }
}

extension Association {
    /// Keeps the associated row of this key, given as columns and values.
    ///
    /// - Parameter key: A unique key, as a dictionary of columns and values.
    public func filter(key: [String: (any DatabaseValueConvertible)?]) -> Self {
        withDestination { $0 = $0.filter(key: key) }
    }

    /// Keeps the associated rows of these keys, given as columns and values.
    ///
    /// - Parameter keys: Unique keys, as dictionaries of columns and values.
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> Self {
        withDestination { $0 = $0.filter(keys: keys) }
    }

}
