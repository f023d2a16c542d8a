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
        var rowIDs: RowIDSet?

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
            let rowIDs: RowIDSet?
            switch (self.rowIDs, other.rowIDs) {
            case (nil, nil): rowIDs = nil
            case let (nil, r?), let (r?, nil): rowIDs = r
            case let (a?, b?): rowIDs = a.intersection(b)
            }
            if let rowIDs, rowIDs.isEmpty { return nil }
            return TableRegion(columns: columns, rowIDs: rowIDs)
        }
    }

    /// One table of a region: its lowercased name, and what the region holds of it.
    struct TableEntry: Hashable, Sendable {
        let key: String
        var region: TableRegion
        /// The name of the table (first) and the names of its columns as first spelled,
        /// for the description, when one is not lowercase; nil otherwise (most names),
        /// which costs no storage. Not part of equality: names are case-insensitive.
        var spellings: [String]?

        init(key: String, region: TableRegion, spellings: [String]?) {
            self.key = key
            self.region = region
            self.spellings = spellings
        }

        /// An entry for `table` and `columns`, spelled as given.
        init(table: String, columns: Set<String>?, rowIDs: RowIDSet?) {
            key = table.lowercased()
            var spellings = [table]
            var lowercased: Set<String>?
            if let columns {
                var keys = Set<String>(minimumCapacity: columns.count)
                for column in columns {
                    let columnKey = column.lowercased()
                    if keys.insert(columnKey).inserted, columnKey != column { spellings.append(column) }
                }
                lowercased = keys
            }
            region = TableRegion(columns: lowercased, rowIDs: rowIDs)
            self.spellings = spellings.count == 1 && key == table ? nil : spellings
        }

        static func == (lhs: TableEntry, rhs: TableEntry) -> Bool {
            lhs.key == rhs.key && lhs.region == rhs.region
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(key)
            hasher.combine(region)
        }

        /// The spellings of both entries (of the same table), the first ones first.
        func spellings(with other: TableEntry) -> [String]? {
            guard let theirs = other.spellings else { return spellings }
            var result = spellings ?? [key]
            for column in theirs.dropFirst() {
                let columnKey = column.lowercased()
                // A lowercase name of this entry has no spelling, and stays lowercase.
                if region.columns?.contains(columnKey) == true || result.dropFirst().contains(where: { $0.lowercased() == columnKey }) { continue }
                result.append(column)
            }
            return result.count == 1 && result[0] == key ? nil : result
        }

        /// The table's name as first spelled.
        var tableSpelling: String { spellings?[0] ?? key }

        /// The column `name` (lowercase) as first spelled.
        func spelling(ofColumn name: String) -> String {
            spellings?.dropFirst().first { $0.lowercased() == name } ?? name
        }
    }

    /// nil for the full database; otherwise the tables, sorted by lowercased name, each
    /// once.
    ///
    /// (A sorted array rather than a dictionary: most regions hold one to a few tables,
    /// and every observation keeps its region. A two-table region was a 208-byte
    /// dictionary; the array takes 112, W6m.)
    private(set) var tables: [TableEntry]?

    /// The empty region.
    public init() {
        tables = []
    }

    private init(tables: [TableEntry]?) {
        assert(tables.map { Self.isSortedAndUnique($0) } ?? true, "a region's tables are sorted by key, each once")
        self.tables = tables
    }

    private static func isSortedAndUnique(_ tables: [TableEntry]) -> Bool {
        zip(tables, tables.dropFirst()).allSatisfy { $0.key < $1.key }
    }

    /// The full database: every table, including the ones created later.
    public static let fullDatabase = DatabaseRegion(tables: nil)

    /// A whole table.
    public init(table: String) {
        tables = [TableEntry(table: table, columns: nil, rowIDs: nil)]
    }

    /// Some columns of a table (an empty set: the table's rows, no column).
    public init(table: String, columns: Set<String>, rowIDs: Set<Int64>? = nil) {
        tables = [TableEntry(table: table, columns: columns, rowIDs: rowIDs.map(RowIDSet.init))]
    }

    /// Some rows of a table, all columns.
    public init(table: String, rowIDs: Set<Int64>) {
        tables = [TableEntry(table: table, columns: nil, rowIDs: RowIDSet(rowIDs))]
    }

    /// Whether the region is empty.
    public var isEmpty: Bool { tables?.isEmpty ?? false }

    /// Whether the region is the full database.
    public var isFullDatabase: Bool { tables == nil }

    /// The lowercased names of the tables of the region (nil for the full database).
    public var tableNames: Set<String>? { tables.map { Set($0.lazy.map(\.key)) } }

    /// What the region holds of the table of this lowercased name; nil when the table is
    /// not in the region, or the region is the full database.
    func tableRegion(forKey key: String) -> TableRegion? {
        guard let tables, let index = Self.index(of: key, in: tables) else { return nil }
        return tables[index].region
    }

    /// The index of `key` in sorted `tables`, by binary search.
    private static func index(of key: String, in tables: [TableEntry]) -> Int? {
        var low = 0
        var high = tables.count
        while low < high {
            let middle = (low + high) / 2
            let candidate = tables[middle].key
            if candidate == key { return middle }
            if candidate < key { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// Walks two sorted table lists together: `both` for each table of both lists,
    /// `single` for each table of one list only.
    private static func walk(
        _ mine: [TableEntry], _ theirs: [TableEntry],
        both: (TableEntry, TableEntry) -> Void,
        single: (TableEntry) -> Void
    ) {
        var i = 0
        var j = 0
        while i < mine.count, j < theirs.count {
            if mine[i].key == theirs[j].key {
                both(mine[i], theirs[j])
                i += 1
                j += 1
            } else if mine[i].key < theirs[j].key {
                single(mine[i])
                i += 1
            } else {
                single(theirs[j])
                j += 1
            }
        }
        mine[i...].forEach(single)
        theirs[j...].forEach(single)
    }

    /// Merges two sorted table lists: the tables of one list only are kept when
    /// `keepingSingles` is true; the tables of both are combined by `combine` (nil drops
    /// the table).
    private static func merge(
        _ mine: [TableEntry], _ theirs: [TableEntry],
        keepingSingles: Bool,
        _ combine: (TableRegion, TableRegion) -> TableRegion?
    ) -> [TableEntry] {
        var result: [TableEntry] = []
        // (Exactly the capacity needed: regions are kept by every observation.)
        var capacity = 0
        walk(mine, theirs, both: { _, _ in capacity += 1 }, single: { _ in if keepingSingles { capacity += 1 } })
        result.reserveCapacity(capacity)
        walk(
            mine, theirs,
            both: { a, b in
                if let region = combine(a.region, b.region) {
                    result.append(TableEntry(key: a.key, region: region, spellings: a.spellings(with: b)))
                }
            },
            single: { table in
                if keepingSingles { result.append(table) }
            })
        return result
    }

    /// The region that contains both regions.
    public func union(_ other: DatabaseRegion) -> DatabaseRegion {
        guard let mine = tables, let theirs = other.tables else { return .fullDatabase }
        if theirs.isEmpty { return self }
        if mine.isEmpty { return other }
        return DatabaseRegion(tables: Self.merge(mine, theirs, keepingSingles: true) { $0.union($1) })
    }

    /// Adds `other` to the region.
    public mutating func formUnion(_ other: DatabaseRegion) {
        self = union(other)
    }

    /// The region that both regions contain.
    public func intersection(_ other: DatabaseRegion) -> DatabaseRegion {
        guard let mine = tables else { return other }
        guard let theirs = other.tables else { return self }
        return DatabaseRegion(tables: Self.merge(mine, theirs, keepingSingles: false) { $0.intersection($1) })
    }

    /// The region an observation tracks, as in GRDB: without the views it read (SQLite
    /// tells no change of a view; the tables under it are in the region too). A region of
    /// one table is kept as it is (a view reads some table).
    func removingViews(_ db: Database) throws -> DatabaseRegion {
        guard let tables, tables.count > 1 else { return self }
        let kept = try tables.filter { try !db.isView($0.key) }
        return kept.count == tables.count ? self : DatabaseRegion(tables: kept)
    }

    /// The same region, without the tables of the schema (`sqlite_master`...).
    func removingSchemaTables() -> DatabaseRegion {
        guard let tables, tables.contains(where: { StatementReport.isSchemaTable(key: $0.key) }) else { return self }
        return DatabaseRegion(tables: tables.filter { !StatementReport.isSchemaTable(key: $0.key) })
    }

    /// The same region, without those of `candidates` (lowercased names of tables and
    /// views dropped or altered) that are no longer tables. (A view goes too: its reads
    /// are those of its tables, which stay, and an observed region holds no view.)
    func removingDroppedTables(among candidates: Set<String>, _ db: Database) -> DatabaseRegion {
        guard let tables, tables.contains(where: { candidates.contains($0.key) }) else { return self }
        let kept = tables.filter { !candidates.contains($0.key) || db.tableIsReachable($0.key) }
        return kept.count == tables.count ? self : DatabaseRegion(tables: kept)
    }

    /// The same region, without its rowids: every row of its tables.
    public func ignoringRowIDs() -> DatabaseRegion {
        guard let tables else { return self }
        return DatabaseRegion(
            tables: tables.map { TableEntry(key: $0.key, region: TableRegion(columns: $0.region.columns, rowIDs: nil), spellings: $0.spellings) })
    }

    /// The same region, where `table` is restricted to some rowids; without `table` when
    /// no rowid is left, since no change can then touch what the region reads of it.
    func restricting(table: String, toRowIDs rowIDs: RowIDSet) -> DatabaseRegion {
        guard var tables, let index = Self.index(of: table.lowercased(), in: tables) else { return self }
        let restricted = tables[index].region.rowIDs.map { $0.intersection(rowIDs) } ?? rowIDs
        if restricted.isEmpty {
            tables.remove(at: index)
        } else {
            tables[index].region.rowIDs = restricted
        }
        return DatabaseRegion(tables: tables)
    }

    /// Whether a change of `kind` to `table` (at `rowID`, when known) touches the region.
    ///
    /// Inserts and deletes touch a table whatever its columns; updates touch it when one of
    /// the updated columns is in the region. A change whose row is not among the region's
    /// rowids does not touch it.
    public func isModified(byChangeOf table: String, kind: ChangeKind, rowID: Int64? = nil) -> Bool {
        guard tables != nil else { return true }
        guard let region = tableRegion(forKey: table.lowercased()) else { return false }
        if let rowID, let rowIDs = region.rowIDs, !rowIDs.contains(rowID) { return false }
        switch kind {
        case .insert, .delete:
            return true
        case .update(let columns):
            guard let regionColumns = region.columns else { return true }
            return columns.contains { regionColumns.contains($0.lowercased()) }
        }
    }

    /// Whether the content of the region would be touched by a change of this kind: an
    /// insert or a delete in one of its tables, an update of one of its columns.
    ///
    /// ```swift
    /// let region = try Player.select(Column("score")).databaseRegion(db)  // player(score)
    /// region.isModified(byEventsOfKind: .update(tableName: "player", columnNames: ["name"]))  // false
    /// region.isModified(byEventsOfKind: .insert(tableName: "player"))  // true
    /// ```
    public func isModified(byEventsOfKind eventKind: DatabaseEventKind) -> Bool {
        switch eventKind {
        case .insert(let table): isModified(byChangeOf: table, kind: .insert)
        case .delete(let table): isModified(byChangeOf: table, kind: .delete)
        case .update(let table, let columns): isModified(byChangeOf: table, kind: .update(columns))
        }
    }

    /// The kinds of changes a region can be asked about.
    public enum ChangeKind: Hashable, Sendable {
        case insert
        case delete
        /// An update of these columns.
        case update(Set<String>)
    }

    /// `player(id,score)`, `team(*)`, `player(*)[1,2]`, `full database`, `empty`. Names are
    /// spelled as they were first given (by the schema, for the region of a request).
    public var description: String {
        guard let tables else { return "full database" }
        if tables.isEmpty { return "empty" }
        // Sorted by their spelling, as GRDB sorts them.
        return tables.sorted { $0.tableSpelling < $1.tableSpelling }.map { table in
            let region = table.region
            var text = table.tableSpelling
            if let columns = region.columns {
                text += "(" + columns.map(table.spelling(ofColumn:)).sorted().joined(separator: ",") + ")"
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
