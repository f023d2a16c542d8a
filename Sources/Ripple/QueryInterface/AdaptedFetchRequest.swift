extension FetchRequest {
    /// The same request, whose fetched rows are presented by the row adapter that
    /// `adapter` makes (see ``RowAdapter``). A request that has an adapter already
    /// presents its rows through both: `adapter` adapts the rows the first one made.
    ///
    /// ```swift
    /// let request = SQLRequest<Row>("SELECT player.*, team.* FROM player JOIN team ...")
    ///     .adapted { db in ScopeAdapter(["team": SuffixRowAdapter(fromIndex: 4)]) }
    /// let row = try request.fetchOne(db)!
    /// let teamName: String = row.scopes["team"]!["name"]
    /// ```
    public func adapted(_ adapter: @escaping @Sendable (Database) throws -> any RowAdapter) -> AdaptedFetchRequest<Self> {
        AdaptedFetchRequest(base: self, adapter: adapter)
    }
}

/// A request whose fetched rows are adapted (see ``FetchRequest/adapted(_:)``).
public struct AdaptedFetchRequest<Base: FetchRequest>: FetchRequest {
    public typealias RowDecoder = Base.RowDecoder

    let base: Base
    let adapter: @Sendable (Database) throws -> any RowAdapter

    public func makePreparedRequest(_ db: Database, forSingleResult: Bool) throws -> PreparedRequest {
        var prepared = try base.makePreparedRequest(db, forSingleResult: forSingleResult)
        let adapter = try adapter(db)
        prepared.adapter = prepared.adapter.map { ChainedRowAdapter(first: $0, second: adapter) } ?? adapter
        return prepared
    }

    public func fetchCount(_ db: Database) throws -> Int {
        try base.fetchCount(db)
    }

    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        try base.databaseRegion(db)
    }
}

/// `second` applied to the rows that `first` adapts: the columns and scopes of
/// `second`, read where `first` finds them. The scopes of `first` are not kept.
struct ChainedRowAdapter: RowAdapter {
    let first: any RowAdapter
    let second: any RowAdapter

    func layout(forColumns columns: [String]) throws -> RowAdapterLayout {
        let firstLayout = try first.layout(forColumns: columns)
        return try second.layout(forColumns: firstLayout.names).reading(through: firstLayout.baseIndexes)
    }
}

extension RowAdapterLayout {
    /// The same layout over the row that `baseIndexes` maps its columns to.
    func reading(through baseIndexes: [Int]) -> RowAdapterLayout {
        RowAdapterLayout(
            names: names,
            baseIndexes: self.baseIndexes.map { baseIndexes[$0] },
            scopes: scopes.mapValues { $0.reading(through: baseIndexes) })
    }
}
