/// How a fetched row is presented: which of its columns, under which names, and which
/// named scopes (rows of their own, made of other columns of the same fetched row).
///
/// ```swift
/// // SELECT player.*, team.* ... : the team's columns come after the player's 4.
/// let adapter = ScopeAdapter(["team": SuffixRowAdapter(fromIndex: 4)])
/// let rows = try Row.fetchAll(db, sql: sql, adapter: adapter)
/// let teamRow = rows[0].scopes["team"]!
/// ```
///
/// Adapters compose: a scope is itself adapted, and may hold scopes. Ripple's adapters are
/// ``EmptyRowAdapter``, ``ColumnMapping``, ``SuffixRowAdapter``, ``RangeRowAdapter``,
/// ``ScopeAdapter`` and ``RenameColumnAdapter``.
public protocol RowAdapter: Sendable {
    /// The layout of adapted rows, for fetched rows of `columns`. Throws when the adapter
    /// names a column that is not there.
    func layout(forColumns columns: [String]) throws -> RowAdapterLayout
}

/// What a ``RowAdapter`` makes of the columns of a fetched row: the adapted columns (each
/// a name and the index of a fetched column), and the scopes, laid out on the same fetched
/// row.
public struct RowAdapterLayout: Sendable {
    /// The names of the adapted row's columns.
    let names: [String]
    /// For each adapted column, the index of the fetched column it reads.
    let baseIndexes: [Int]
    /// The named scopes.
    let scopes: [String: RowAdapterLayout]

    init(names: [String], baseIndexes: [Int], scopes: [String: RowAdapterLayout] = [:]) {
        assert(names.count == baseIndexes.count)
        self.names = names
        self.baseIndexes = baseIndexes
        self.scopes = scopes
    }

    /// The fetched columns `indexes`, under their own names.
    init(columns: [String], indexes: some Sequence<Int>) {
        let indexes = Array(indexes)
        self.init(names: indexes.map { columns[$0] }, baseIndexes: indexes)
    }

    func withScopes(_ scopes: [String: RowAdapterLayout]) -> RowAdapterLayout {
        RowAdapterLayout(names: names, baseIndexes: baseIndexes, scopes: self.scopes.merging(scopes) { $1 })
    }
}

/// No column at all (scopes may still be added with ``ScopeAdapter``).
public struct EmptyRowAdapter: RowAdapter {
    public init() {}

    public func layout(forColumns columns: [String]) throws -> RowAdapterLayout {
        RowAdapterLayout(names: [], baseIndexes: [])
    }
}

/// Columns renamed, and only them: `ColumnMapping(["id": "authorId", "name": "authorName"])`
/// presents the fetched columns `authorId` and `authorName` as `id` and `name`, in the
/// order of the fetched row. Throws when a fetched column is missing.
public struct ColumnMapping: RowAdapter {
    /// Adapted names, and the fetched columns they read.
    let mapping: [String: String]

    public init(_ mapping: [String: String]) {
        self.mapping = mapping
    }

    public func layout(forColumns columns: [String]) throws -> RowAdapterLayout {
        let lowercased = columns.map { $0.lowercased() }
        let pairs = try mapping.map { name, baseName -> (name: String, index: Int) in
            guard let index = columns.firstIndex(of: baseName) ?? lowercased.firstIndex(of: baseName.lowercased()) else {
                throw DatabaseError(
                    message: "Mapping references missing column \(baseName). Valid column names are: \(columns.joined(separator: ", ")).")
            }
            return (name, index)
        }
        .sorted { ($0.index, $0.name) < ($1.index, $1.name) }
        return RowAdapterLayout(names: pairs.map(\.name), baseIndexes: pairs.map(\.index))
    }
}

/// The fetched columns from `index` on: `SuffixRowAdapter(fromIndex: 4)`.
public struct SuffixRowAdapter: RowAdapter {
    let index: Int

    public init(fromIndex index: Int) {
        precondition(index >= 0, "SuffixRowAdapter needs a non-negative index, got \(index)")
        self.index = index
    }

    public func layout(forColumns columns: [String]) throws -> RowAdapterLayout {
        RowAdapterLayout(columns: columns, indexes: min(index, columns.count)..<columns.count)
    }
}

/// The fetched columns in a range of indexes: `RangeRowAdapter(2..<4)`.
public struct RangeRowAdapter: RowAdapter {
    let range: Range<Int>

    public init(_ range: Range<Int>) {
        precondition(range.lowerBound >= 0, "RangeRowAdapter needs non-negative indexes, got \(range)")
        self.range = range
    }

    public init(_ range: ClosedRange<Int>) {
        self.init(range.lowerBound..<(range.upperBound + 1))
    }

    public func layout(forColumns columns: [String]) throws -> RowAdapterLayout {
        RowAdapterLayout(columns: columns, indexes: range.clamped(to: 0..<columns.count))
    }
}

/// Named scopes, on a base adapter (all columns by default):
/// `ScopeAdapter(["team": SuffixRowAdapter(fromIndex: 4)])`. Each scope adapts the fetched
/// row, not the row of the base adapter.
public struct ScopeAdapter: RowAdapter {
    let base: any RowAdapter
    let scopes: [String: any RowAdapter]

    public init(_ scopes: [String: any RowAdapter]) {
        self.init(base: SuffixRowAdapter(fromIndex: 0), scopes: scopes)
    }

    public init(base: any RowAdapter, scopes: [String: any RowAdapter]) {
        self.base = base
        self.scopes = scopes
    }

    public func layout(forColumns columns: [String]) throws -> RowAdapterLayout {
        try base.layout(forColumns: columns).withScopes(scopes.mapValues { try $0.layout(forColumns: columns) })
    }
}

/// Every column, renamed: `RenameColumnAdapter { $0.lowercased() }`.
public struct RenameColumnAdapter: RowAdapter {
    let transform: @Sendable (String) -> String

    public init(_ transform: @escaping @Sendable (String) -> String) {
        self.transform = transform
    }

    public func layout(forColumns columns: [String]) throws -> RowAdapterLayout {
        RowAdapterLayout(names: columns.map(transform), baseIndexes: Array(columns.indices))
    }
}

/// Adapters for consecutive groups of columns, of the given counts: the last one takes
/// the remaining columns too.
///
/// ```swift
/// // SELECT player.*, team.* ... with 4 columns of player
/// let adapters = splittingRowAdapters(columnCounts: [4])
/// let adapter = ScopeAdapter(base: adapters[0], scopes: ["team": adapters[1]])
/// ```
public func splittingRowAdapters(columnCounts: [Int]) -> [any RowAdapter] {
    guard !columnCounts.isEmpty else { return [SuffixRowAdapter(fromIndex: 0)] }
    var start = 0
    var adapters: [any RowAdapter] = []
    for count in columnCounts {
        adapters.append(RangeRowAdapter(start..<(start + count)))
        start += count
    }
    adapters.append(SuffixRowAdapter(fromIndex: start))
    return adapters
}
