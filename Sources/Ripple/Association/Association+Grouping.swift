// Groups and aggregates on the associated table: `Team.players.group(Column("category"))`,
// `Team.players.annotated(with: Player.awards.count)`, `Team.players.having(Player.awards.isEmpty)`.

extension Association {
    /// Groups the associated rows: `GROUP BY`.
    ///
    /// - Parameter expressions: Columns or expressions of the destination table.
    public func group(_ expressions: any SQLExpressible...) -> Self {
        group(expressions)
    }

    /// Groups the associated rows: `GROUP BY`.
    ///
    /// - Parameter expressions: Columns or expressions of the destination table.
    public func group(_ expressions: [any SQLExpressible]) -> Self {
        withDestination { $0 = $0.group(expressions) }
    }

    /// Groups the associated rows by primary key.
    public func groupByPrimaryKey() -> Self {
        withDestination { $0 = $0.groupByPrimaryKey() }
    }

    /// Filters the groups of associated rows: `HAVING`.
    ///
    /// - Parameter predicate: A condition on the groups.
    public func having(_ predicate: some SQLExpressible) -> Self {
        withDestination { $0 = $0.having(predicate) }
    }

    /// Selects aggregates of the associations of the destination, in addition to its
    /// selected columns.
    ///
    /// - Parameter aggregates: Aggregates of associations of the destination's records.
    public func annotated(with aggregates: AssociationAggregate<RowDecoder>...) -> Self {
        withDestination { $0 = $0.annotated(with: aggregates.map { $0.ofRows() }) }
    }

    /// Filters the associated rows on an aggregate of their own associations.
    ///
    /// - Parameter predicate: An aggregate condition of the destination's records.
    public func having(_ predicate: AssociationAggregate<RowDecoder>) -> Self {
        withDestination { $0 = $0.having(predicate.ofRows()) }
    }
}

extension AssociationAggregate {
    /// The aggregate, for the request of rows of its table that an association holds.
    func ofRows() -> AssociationAggregate<Row> {
        AssociationAggregate<Row>(associations: associations, expression: expression, key: key, emptinessCount: emptinessCount)
    }
}
