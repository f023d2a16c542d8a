import Dispatch
import Foundation

/// A change in the records of a ``FetchedRecordsController``. Deletions and updates use
/// index paths in the previous records, insertions in the new ones, and moves both: the
/// conventions of table and collection view batch updates.
public enum FetchedRecordChange: Sendable, Equatable {
    /// A record was inserted at `indexPath`.
    case insertion(indexPath: IndexPath)
    /// The record at `indexPath` was deleted.
    case deletion(indexPath: IndexPath)
    /// A record moved, maybe with changes (the old values of the changed columns).
    case move(indexPath: IndexPath, newIndexPath: IndexPath, changes: [String: DatabaseValue])
    /// A record changed in place (the old values of the changed columns).
    case update(indexPath: IndexPath, changes: [String: DatabaseValue])
}

/// Tracks the records of a request, and after each transaction that changed them reports
/// what changed, as insertions, deletions, moves and updates with index paths: for table
/// and collection views.
///
/// ```swift
/// let controller = try FetchedRecordsController(dbQueue, request: Player.order(Column("name")))
/// controller.trackChanges(
///     willChange: { controller in tableView.beginUpdates() },
///     onChange: { controller, record, change in
///         switch change {
///         case .insertion(let indexPath): ...
///         case .deletion(let indexPath): ...
///         case .move(let indexPath, let newIndexPath, _): ...
///         case .update(let indexPath, _): ...
///         }
///     },
///     didChange: { controller in tableView.endUpdates() })
/// try controller.performFetch()
/// ```
///
/// Records are identified by the primary key of the request's table (all columns when the
/// fetched rows lack it). Callbacks only come when the records really differ. The diff costs
/// O(N) time and memory for N records when no record moved, O(N log N) when some did.
///
/// Use the controller from its queue (the main queue by default): callbacks run there, and
/// `fetchedRecords` is updated there.
public final class FetchedRecordsController<Record: FetchableRecord & Sendable>: Sendable {
    /// The queue of the callbacks.
    public let queue: DispatchQueue

    private let writer: any DatabaseWriter
    private let fetchRows: @Sendable (Database) throws -> [Row]
    private let region: any DatabaseRegionConvertible
    private let identityColumns: [String]?

    /// Used on `queue`; the callbacks are called out of the lock.
    private struct State {
        var items: [Item] = []
        var cancellable: AnyDatabaseCancellable?
        var willChange: ((FetchedRecordsController<Record>) -> Void)?
        var onChange: ((FetchedRecordsController<Record>, Record, FetchedRecordChange) -> Void)?
        var didChange: ((FetchedRecordsController<Record>) -> Void)?
        var errorHandler: ((FetchedRecordsController<Record>, any Error) -> Void)?
    }
    private let state = LockedState(State())

    private struct Item {
        let identity: [DatabaseValue]
        let row: Row
        let record: Record
    }

    /// A controller of the records of `request`.
    public init(_ writer: some DatabaseWriter, request: some FetchRequest<Record>, queue: DispatchQueue = .main) throws {
        self.writer = writer
        self.queue = queue
        self.region = request
        self.fetchRows = { db in
            return try request.makePreparedRequest(db, forSingleResult: false).fetchAllRows(db)
        }
        self.identityColumns = try writer.read { db -> [String]? in
            let tables = try request.databaseRegion(db).tableNames ?? []
            guard tables.count == 1, let table = tables.first else { return nil }
            return try db.primaryKey(table).columns
        }
    }

    deinit {
        state.withLock { $0.cancellable.take() }?.cancel()
    }

    /// The current records.
    public var fetchedRecords: [Record] { state.withLock { $0.items.map(\.record) } }

    /// The sections: one, with all records.
    public var sections: [FetchedRecordsSectionInfo<Record>] { [FetchedRecordsSectionInfo(records: fetchedRecords)] }

    /// The record at `indexPath` (section 0).
    public func record(at indexPath: IndexPath) -> Record {
        state.withLock { $0.items[indexPath[1]].record }
    }

    /// Fetches the records now, synchronously, without calling the change callbacks.
    public func performFetch() throws {
        let rows = try writer.read { db in try fetchRows(db) }
        let items = try makeItems(rows)
        state.withLock { $0.items = items }
    }

    /// Calls `errorHandler` on `queue` when fetching or decoding the records fails while
    /// changes are tracked. The records stay as they were, and tracking goes on.
    public func trackErrors(_ errorHandler: @escaping (FetchedRecordsController<Record>, any Error) -> Void) {
        state.withLock { $0.errorHandler = errorHandler }
    }

    /// Starts tracking changes: after each transaction that changed the records,
    /// `willChange`, then `onChange` for each change (deletions, insertions, moves, then
    /// updates), then `didChange`, all on `queue`.
    public func trackChanges(
        willChange: ((FetchedRecordsController<Record>) -> Void)? = nil,
        onChange: ((FetchedRecordsController<Record>, Record, FetchedRecordChange) -> Void)? = nil,
        didChange: ((FetchedRecordsController<Record>) -> Void)? = nil
    ) {
        let isTracking = state.withLock { state in
            state.willChange = willChange
            state.onChange = onChange
            state.didChange = didChange
            return state.cancellable != nil
        }
        guard !isTracking else { return }
        let fetchRows = self.fetchRows
        let observation = ValueObservation<[Row]>(regionSpec: .explicit([region])) {
            ValuePipeline(fetch: fetchRows)
        }.removeDuplicates()
        let cancellable = observation.start(
            in: writer, scheduling: .async(onQueue: queue),
            onError: { [weak self] error in
                self?.report(error)
            }
        ) { [weak self] rows in
            self?.apply(rows)
        }
        state.withLock { $0.cancellable = cancellable }
    }

    private func identity(of row: Row) -> [DatabaseValue] {
        if let identityColumns {
            let values = identityColumns.compactMap { row.databaseValue(forColumn: $0) }
            if values.count == identityColumns.count { return values }
        }
        return row.databaseValues
    }

    private func makeItems(_ rows: [Row]) throws -> [Item] {
        try rows.map { Item(identity: identity(of: $0), row: $0, record: try Record.decoded(from: $0)) }
    }

    private func report(_ error: any Error) {
        let errorHandler = state.withLock { $0.errorHandler }
        errorHandler?(self, error)
    }

    private func apply(_ rows: [Row]) {
        let newItems: [Item]
        do {
            newItems = try makeItems(rows)
        } catch {
            report(error)
            return
        }
        let (oldItems, willChange, onChange, didChange) = state.withLock { ($0.items, $0.willChange, $0.onChange, $0.didChange) }
        let changes = Self.diff(from: oldItems, to: newItems)
        guard !changes.isEmpty else {
            state.withLock { $0.items = newItems }
            return
        }
        willChange?(self)
        state.withLock { $0.items = newItems }
        if let onChange {
            for (change, record) in changes { onChange(self, record, change) }
        }
        didChange?(self)
    }

    /// The changes from `old` to `new`: O(N log N).
    private static func diff(from old: [Item], to new: [Item]) -> [(FetchedRecordChange, Record)] {
        var oldIndexes: [[DatabaseValue]: Int] = [:]
        oldIndexes.reserveCapacity(old.count)
        for (index, item) in old.enumerated() where oldIndexes[item.identity] == nil {
            oldIndexes[item.identity] = index
        }
        var matchedOld = [Int?](repeating: nil, count: new.count)
        var isMatched = [Bool](repeating: false, count: old.count)
        for (index, item) in new.enumerated() {
            if let oldIndex = oldIndexes[item.identity], !isMatched[oldIndex] {
                matchedOld[index] = oldIndex
                isMatched[oldIndex] = true
            }
        }
        var deletions: [(FetchedRecordChange, Record)] = []
        for index in old.indices where !isMatched[index] {
            deletions.append((.deletion(indexPath: IndexPath(indexes: [0, index])), old[index].record))
        }
        // The records that keep their relative order are the longest increasing subsequence
        // of the old indexes, in new order; the other matched records moved.
        let matchedOldIndexes = matchedOld.compactMap { $0 }
        // Usually nothing moved: the matched records are still in order, found in linear
        // time; otherwise the longest increasing subsequence tells the fewest moves.
        let nothingMoved = zip(matchedOldIndexes, matchedOldIndexes.dropFirst()).allSatisfy { $0 < $1 }
        let staying = nothingMoved ? [] : longestIncreasingSubsequence(matchedOldIndexes)
        var insertions: [(FetchedRecordChange, Record)] = []
        var moves: [(FetchedRecordChange, Record)] = []
        var updates: [(FetchedRecordChange, Record)] = []
        for (newIndex, oldIndex) in matchedOld.enumerated() {
            let record = new[newIndex].record
            guard let oldIndex else {
                insertions.append((.insertion(indexPath: IndexPath(indexes: [0, newIndex])), record))
                continue
            }
            if nothingMoved || staying.contains(oldIndex) {
                // Rows that did not change cost one comparison; only changed ones are detailed.
                if old[oldIndex].row != new[newIndex].row {
                    updates.append(
                        (
                            .update(
                                indexPath: IndexPath(indexes: [0, oldIndex]), changes: columnChanges(from: old[oldIndex].row, to: new[newIndex].row)),
                            record
                        ))
                }
            } else {
                moves.append(
                    (
                        .move(
                            indexPath: IndexPath(indexes: [0, oldIndex]), newIndexPath: IndexPath(indexes: [0, newIndex]),
                            changes: columnChanges(from: old[oldIndex].row, to: new[newIndex].row)), record
                    ))
            }
        }
        return deletions + insertions + moves + updates
    }

    /// The old values of the columns that differ.
    private static func columnChanges(from old: Row, to new: Row) -> [String: DatabaseValue] {
        var changes: [String: DatabaseValue] = [:]
        for (column, oldValue) in old where new.databaseValue(forColumn: column) != oldValue {
            changes[column] = oldValue
        }
        return changes
    }

    /// The values of the longest increasing subsequence: O(N log N).
    private static func longestIncreasingSubsequence(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = []  // indexes into values
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var result: Set<Int> = []
        var index = tails.last ?? -1
        while index >= 0 {
            result.insert(values[index])
            index = previous[index]
        }
        return result
    }
}

/// A section of a ``FetchedRecordsController``.
public struct FetchedRecordsSectionInfo<Record> {
    /// The records of the section.
    public let records: [Record]
    /// The number of records.
    public var numberOfRecords: Int { records.count }
}
