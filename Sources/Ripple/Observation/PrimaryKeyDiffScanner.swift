import Foundation

/// The records inserted, updated and deleted between two results of a request.
public struct PrimaryKeyDiff<Record> {
    /// Records that were not in the previous result.
    public let inserted: [Record]
    /// Records whose primary key was in the previous result, with other values.
    public let updated: [Record]
    /// Records of the previous result that are gone.
    public let deleted: [Record]

    /// Whether nothing changed.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

/// Computes diffs between consecutive results of a request ordered by primary key, for
/// collections whose order does not matter (annotations on a map, for example). Each diff
/// costs O(max(N, M)) for results of sizes N and M.
///
/// ```swift
/// let request = Place.order(Column("id"))
/// let scanner = try dbQueue.read { db in
///     try PrimaryKeyDiffScanner(database: db, request: request, initialRecords: [])
/// }
/// // Feed it with rows, after each change:
/// let next = scanner.diffed(from: rows)
/// print(next.diff.inserted, next.diff.updated, next.diff.deleted)
/// ```
///
/// The request must be ordered by primary key; with text primary keys, in the default
/// BINARY collation (the order of the UTF-8 bytes). Rows that fail to decode as records
/// are left out of the diff and reported in ``decodingErrors``.
public struct PrimaryKeyDiffScanner<Record: FetchableRecord & MutablePersistableRecord> {
    /// The diff between the two last results.
    public let diff: PrimaryKeyDiff<Record>
    /// Errors of the rows of the last result that could not be decoded.
    public let decodingErrors: [any Error]

    private let primaryKeyColumns: [String]
    private let items: [Item]

    fileprivate struct Item {
        let key: [DatabaseValue]
        let row: Row
        let record: Record
    }

    /// A scanner for `request`, starting from `initialRecords` (sorted by primary key).
    public init(database: Database, request: some FetchRequest<Record>, initialRecords: [Record]) throws {
        let table: String
        if let request = request as? any QueryInterfaceRequestProtocol {
            table = request.tableName
        } else {
            let tables = try request.databaseRegion(database).tableNames ?? []
            guard tables.count == 1, let only = tables.first else {
                throw DatabaseError.misuse("PrimaryKeyDiffScanner needs a request of a single table")
            }
            table = only
        }
        let columns = try database.primaryKey(table).columns
        self.primaryKeyColumns = columns
        var items: [Item] = []
        for record in initialRecords {
            let container = try record.persistenceContainer()
            let row = Row(columns: container.columns, values: container.values)
            let key = columns.map { container.databaseValue(forColumn: $0) ?? .null }
            items.append(Item(key: key, row: row, record: record))
        }
        self.items = items
        self.diff = PrimaryKeyDiff(inserted: [], updated: [], deleted: [])
        self.decodingErrors = []
    }

    private init(primaryKeyColumns: [String], items: [Item], diff: PrimaryKeyDiff<Record>, decodingErrors: [any Error]) {
        self.primaryKeyColumns = primaryKeyColumns
        self.items = items
        self.diff = diff
        self.decodingErrors = decodingErrors
    }

    /// The scanner for the next result, `rows` (sorted by primary key), with its diff from
    /// the previous one.
    public func diffed(from rows: [Row]) -> PrimaryKeyDiffScanner {
        var inserted: [Record] = []
        var updated: [Record] = []
        var deleted: [Record] = []
        var errors: [any Error] = []
        var newItems: [Item] = []
        newItems.reserveCapacity(rows.count)

        func makeItem(_ row: Row) -> Item? {
            do {
                let key = try primaryKeyColumns.map { column -> DatabaseValue in
                    guard let value = row.databaseValue(forColumn: column) else {
                        throw DatabaseError.misuse("PrimaryKeyDiffScanner: rows lack the primary key column \(column)")
                    }
                    return value
                }
                return Item(key: key, row: row, record: try Record.decoded(from: row))
            } catch {
                errors.append(error)
                return nil
            }
        }

        var oldIndex = items.startIndex
        var newIndex = rows.startIndex
        var pending = newIndex < rows.endIndex ? makeItem(rows[newIndex]) : nil
        while true {
            // Skip rows that do not decode.
            while pending == nil, newIndex < rows.endIndex {
                newIndex += 1
                pending = newIndex < rows.endIndex ? makeItem(rows[newIndex]) : nil
            }
            guard oldIndex < items.endIndex || pending != nil else { break }
            if let new = pending, oldIndex < items.endIndex {
                let old = items[oldIndex]
                switch compareKeys(old.key, new.key) {
                case .orderedAscending:
                    deleted.append(old.record)
                    oldIndex += 1
                case .orderedDescending:
                    inserted.append(new.record)
                    newItems.append(new)
                    newIndex += 1
                    pending = newIndex < rows.endIndex ? makeItem(rows[newIndex]) : nil
                case .orderedSame:
                    if old.row != new.row { updated.append(new.record) }
                    newItems.append(new)
                    oldIndex += 1
                    newIndex += 1
                    pending = newIndex < rows.endIndex ? makeItem(rows[newIndex]) : nil
                }
            } else if let new = pending {
                inserted.append(new.record)
                newItems.append(new)
                newIndex += 1
                pending = newIndex < rows.endIndex ? makeItem(rows[newIndex]) : nil
            } else {
                deleted.append(items[oldIndex].record)
                oldIndex += 1
            }
        }
        return PrimaryKeyDiffScanner(
            primaryKeyColumns: primaryKeyColumns,
            items: newItems,
            diff: PrimaryKeyDiff(inserted: inserted, updated: updated, deleted: deleted),
            decodingErrors: errors)
    }

    private func compareKeys(_ lhs: [DatabaseValue], _ rhs: [DatabaseValue]) -> ComparisonResult {
        for (a, b) in zip(lhs, rhs) {
            let result = compareSQLite(a, b)
            if result != .orderedSame { return result }
        }
        return .orderedSame
    }
}

/// The SQLite order of values with the BINARY collation: NULL, numbers, texts (by UTF-8
/// bytes), blobs (by bytes).
func compareSQLite(_ a: DatabaseValue, _ b: DatabaseValue) -> ComparisonResult {
    func rank(_ value: DatabaseValue) -> Int {
        switch value.storage {
        case .null: return 0
        case .int64, .double: return 1
        case .string: return 2
        case .blob: return 3
        }
    }
    let (ra, rb) = (rank(a), rank(b))
    if ra != rb { return ra < rb ? .orderedAscending : .orderedDescending }
    switch (a.storage, b.storage) {
    case let (.int64(x), .int64(y)):
        return x == y ? .orderedSame : (x < y ? .orderedAscending : .orderedDescending)
    case (.int64, .double), (.double, .int64), (.double, .double):
        let x = Double.fromDatabaseValue(a)!
        let y = Double.fromDatabaseValue(b)!
        return x == y ? .orderedSame : (x < y ? .orderedAscending : .orderedDescending)
    case let (.string(x), .string(y)):
        return bytesCompare(Array(x.utf8), Array(y.utf8))
    case let (.blob(x), .blob(y)):
        return bytesCompare(Array(x), Array(y))
    default:
        return .orderedSame
    }
}

private func bytesCompare(_ x: [UInt8], _ y: [UInt8]) -> ComparisonResult {
    for (a, b) in zip(x, y) where a != b { return a < b ? .orderedAscending : .orderedDescending }
    return x.count == y.count ? .orderedSame : (x.count < y.count ? .orderedAscending : .orderedDescending)
}

/// Lets code that holds any request find a query interface request's table.
protocol QueryInterfaceRequestProtocol {
    var tableName: String { get }
}

extension QueryInterfaceRequest: QueryInterfaceRequestProtocol {}

extension PrimaryKeyDiff: Sendable where Record: Sendable {}

extension PrimaryKeyDiffScanner: Sendable where Record: Sendable {}
extension PrimaryKeyDiffScanner.Item: Sendable where Record: Sendable {}
