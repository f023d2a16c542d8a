/// A part of the database: tables, the columns of each table, and optionally the rowids of
/// each table.
///
/// Requests report the region they read, as SQLite sees it when it compiles them:
///
/// ```swift
/// let region = try Player.select(Column("score")).databaseRegion(db)
/// print(region)  // player(score)
/// ```
///
/// A table with no column in its region (`SELECT COUNT(*) FROM player`) is impacted by
/// inserts and deletes, not by updates. A table with rowids is only impacted by changes to
/// those rows.
public struct DatabaseRegion: Hashable, Sendable, CustomStringConvertible {
    /// What a region holds of one table.
    struct TableRegion: Hashable, Sendable {
        /// The columns (lowercased); nil means all columns.
        var columns: Set<String>?
        /// The rowids; nil means all rows.
        var rowIDs: Set<Int64>?

        func union(_ other: TableRegion) -> TableRegion {
            TableRegion(
                columns: columns.flatMap { a in other.columns.map { a.union($0) } },
                rowIDs: rowIDs.flatMap { a in other.rowIDs.map { a.union($0) } })
        }

        func intersection(_ other: TableRegion) -> TableRegion? {
            let columns: Set<String>?
            switch (self.columns, other.columns) {
            case (nil, nil): columns = nil
            case let (nil, c?), let (c?, nil): columns = c
            case let (a?, b?): columns = a.intersection(b)
            }
            let rowIDs: Set<Int64>?
            switch (self.rowIDs, other.rowIDs) {
            case (nil, nil): rowIDs = nil
            case let (nil, r?), let (r?, nil): rowIDs = r
            case let (a?, b?): rowIDs = a.intersection(b)
            }
            if let rowIDs, rowIDs.isEmpty { return nil }
            return TableRegion(columns: columns, rowIDs: rowIDs)
        }
    }

    /// nil for the full database; otherwise tables keyed by lowercased name.
    private(set) var tableRegions: [String: TableRegion]?

    /// The empty region.
    public init() {
        tableRegions = [:]
    }

    private init(tableRegions: [String: TableRegion]?) {
        self.tableRegions = tableRegions
    }

    /// The full database: every table, including the ones created later.
    public static let fullDatabase = DatabaseRegion(tableRegions: nil)

    /// A whole table.
    public init(table: String) {
        tableRegions = [table.lowercased(): TableRegion(columns: nil, rowIDs: nil)]
    }

    /// Some columns of a table (an empty set: the table's rows, no column).
    public init(table: String, columns: Set<String>, rowIDs: Set<Int64>? = nil) {
        tableRegions = [table.lowercased(): TableRegion(columns: Set(columns.map { $0.lowercased() }), rowIDs: rowIDs)]
    }

    /// Some rows of a table, all columns.
    public init(table: String, rowIDs: Set<Int64>) {
        tableRegions = [table.lowercased(): TableRegion(columns: nil, rowIDs: rowIDs)]
    }

    /// Whether the region is empty.
    public var isEmpty: Bool { tableRegions?.isEmpty ?? false }

    /// Whether the region is the full database.
    public var isFullDatabase: Bool { tableRegions == nil }

    /// The lowercased names of the tables of the region (nil for the full database).
    public var tableNames: Set<String>? { tableRegions.map { Set($0.keys) } }

    /// The region that contains both regions.
    public func union(_ other: DatabaseRegion) -> DatabaseRegion {
        guard let mine = tableRegions, let theirs = other.tableRegions else { return .fullDatabase }
        return DatabaseRegion(tableRegions: mine.merging(theirs) { $0.union($1) })
    }

    /// Adds `other` to the region.
    public mutating func formUnion(_ other: DatabaseRegion) {
        self = union(other)
    }

    /// The region that both regions contain.
    public func intersection(_ other: DatabaseRegion) -> DatabaseRegion {
        guard let mine = tableRegions else { return other }
        guard let theirs = other.tableRegions else { return self }
        var result: [String: TableRegion] = [:]
        for (table, region) in mine {
            if let otherRegion = theirs[table], let intersection = region.intersection(otherRegion) {
                result[table] = intersection
            }
        }
        return DatabaseRegion(tableRegions: result)
    }

    /// The same region, without its rowids: every row of its tables.
    public func ignoringRowIDs() -> DatabaseRegion {
        guard let tableRegions else { return self }
        return DatabaseRegion(tableRegions: tableRegions.mapValues { TableRegion(columns: $0.columns, rowIDs: nil) })
    }

    /// The same region, where `table` is restricted to some rowids.
    func restricting(table: String, toRowIDs rowIDs: Set<Int64>) -> DatabaseRegion {
        guard var tableRegions, var region = tableRegions[table.lowercased()] else { return self }
        region.rowIDs = region.rowIDs.map { $0.intersection(rowIDs) } ?? rowIDs
        tableRegions[table.lowercased()] = region
        return DatabaseRegion(tableRegions: tableRegions)
    }

    /// Whether a change of `kind` to `table` (at `rowID`, when known) touches the region.
    ///
    /// Inserts and deletes touch a table whatever its columns; updates touch it when one of
    /// the updated columns is in the region. A change whose row is not among the region's
    /// rowids does not touch it.
    public func isModified(byChangeOf table: String, kind: ChangeKind, rowID: Int64? = nil) -> Bool {
        guard let tableRegions else { return true }
        guard let region = tableRegions[table.lowercased()] else { return false }
        if let rowID, let rowIDs = region.rowIDs, !rowIDs.contains(rowID) { return false }
        switch kind {
        case .insert, .delete:
            return true
        case .update(let columns):
            guard let regionColumns = region.columns else { return true }
            return columns.contains { regionColumns.contains($0.lowercased()) }
        }
    }

    /// Whether the content of the region would be touched by a change of this kind.
    public func isModified(byEventsOfKind eventKind: DatabaseEventKind) -> Bool {
        !intersection(eventKind.modifiedRegion).isEmpty
    }

    /// The kinds of changes a region can be asked about.
    public enum ChangeKind: Hashable, Sendable {
        case insert
        case delete
        /// An update of these columns.
        case update(Set<String>)
    }

    /// `player(id,score)`, `team(*)`, `player(*)[1,2]`, `full database`, `empty`.
    public var description: String {
        guard let tableRegions else { return "full database" }
        if tableRegions.isEmpty { return "empty" }
        return tableRegions.keys.sorted().map { table in
            let region = tableRegions[table]!
            var text = table
            if let columns = region.columns {
                text += "(" + columns.sorted().joined(separator: ",") + ")"
            } else {
                text += "(*)"
            }
            if let rowIDs = region.rowIDs {
                text += "[" + rowIDs.sorted().map(String.init).joined(separator: ",") + "]"
            }
            return text
        }.joined(separator: ",")
    }
}

/// A type that can tell the region of the database it is about: regions themselves,
/// tables, and requests.
public protocol DatabaseRegionConvertible: Sendable {
    /// The region.
    func databaseRegion(_ db: Database) throws -> DatabaseRegion
}

extension DatabaseRegion: DatabaseRegionConvertible {
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion { self }
}

extension DatabaseRegionConvertible where Self == DatabaseRegion {
    /// The full database.
    public static var fullDatabase: DatabaseRegion { DatabaseRegion.fullDatabase }
}
