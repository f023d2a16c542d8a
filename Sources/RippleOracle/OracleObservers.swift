import Foundation
import Ripple

/// What an observation watches, in the oracle's own terms: from it, and the ground truth,
/// the oracle knows whether a transaction must notify the observation, may notify it, or
/// must not.
struct WatchSpec: CustomStringConvertible {
    enum Target {
        /// Some columns (nil: all; empty: the rows only, as `COUNT(*)`) of some rows (nil:
        /// all) of a table.
        case table(key: String, columns: Set<String>?, rowKeys: Set<String>?)
        /// A view, and the tables it reads.
        case view(query: String, tableKeys: Set<String>)
        case fullDatabase
        case schema
    }

    let target: Target
    let label: String
    /// Whether the observation also watches the schema (value observations that record
    /// their region on each fetch): a schema change may notify it.
    var watchesSchema = false

    var description: String { label }

    enum Expectation: Equatable {
        case mustNotify
        case mayNotify
        case mustNotNotify
    }

    /// What a committed unit of work means for the observation.
    func expectation(writes: Writes, ranDDL: Bool, viewChanged: (String) -> Bool) -> Expectation {
        let expectation = targetExpectation(writes: writes, ranDDL: ranDDL, viewChanged: viewChanged)
        if expectation == .mustNotNotify && watchesSchema && (ranDDL || writes.schemaChanged) { return .mayNotify }
        return expectation
    }

    private func targetExpectation(writes: Writes, ranDDL: Bool, viewChanged: (String) -> Bool) -> Expectation {
        switch target {
        case let .table(key, columns, rowKeys):
            guard let tableWrites = writes.tables[key] else { return .mustNotNotify }
            func watched(_ rowKey: String) -> Bool { rowKeys?.contains(rowKey) ?? true }
            let rowsChanged = tableWrites.inserted.contains(where: watched) || tableWrites.deleted.contains(where: watched)
            let columnsChanged = tableWrites.updated.contains { rowKey, changed in
                watched(rowKey) && (columns.map { !$0.isDisjoint(with: changed) } ?? true)
            }
            if rowsChanged || columnsChanged { return .mustNotify }
            if tableWrites.shapeChanged { return columns == nil && rowKeys == nil ? .mustNotify : .mayNotify }
            return .mustNotNotify
        case let .view(query, tableKeys):
            if viewChanged(query) { return .mustNotify }
            return tableKeys.contains { writes.tables[$0] != nil } ? .mayNotify : .mustNotNotify
        case .fullDatabase:
            if writes.tables.values.contains(where: { !$0.rowKeys.isEmpty }) { return .mustNotify }
            return writes.isEmpty && !ranDDL ? .mustNotNotify : .mayNotify
        case .schema:
            if writes.schemaChanged { return .mustNotify }
            return ranDDL ? .mayNotify : .mustNotNotify
        }
    }
}

extension LockedState {
    /// A copy of the value, read under the lock.
    var current: State { withLock { $0 } }
}

/// A transaction observer that records every callback, and checks on the spot what can
/// only be checked then (no change event while a savepoint is open, no use of the
/// connection).
///
/// Made by ``make(label:acceptedTables:oracleState:wantsPreUpdateEvents:acceptsKind:)``: an
/// observer that implements `databaseWillChange(with:)` or one that does not (Ripple then
/// may hear row changes through SQLite's update hook instead of the pre-update hook).
class RecordingObserver {
    // Called on the writer's queue only; the oracle reads the log from there too.
    enum Callback: Equatable, CustomStringConvertible {
        case willChange(kind: DatabasePreUpdateEvent.Kind, table: String, initialRowID: Int64?, finalRowID: Int64?, statement: Int)
        case didChange(kind: DatabaseEvent.Kind, table: String, rowID: Int64)
        case didChangeWithoutEvent
        case willCommit
        case didCommit
        case didRollback

        var description: String {
            switch self {
            case let .willChange(kind, table, initial, final, _):
                return "willChange(\(kind) \(table) \(initial.map(String.init) ?? "-")->\(final.map(String.init) ?? "-"))"
            case let .didChange(kind, table, rowID): return "didChange(\(kind) \(table) \(rowID))"
            case .didChangeWithoutEvent: return "didChange()"
            case .willCommit: return "willCommit"
            case .didCommit: return "didCommit"
            case .didRollback: return "didRollback"
            }
        }

        var isChange: Bool {
            switch self {
            case .willChange, .didChange, .didChangeWithoutEvent: return true
            default: return false
            }
        }
    }

    let label: String
    /// Which tables (as the schema spells them) the observer accepts; nil: all.
    let acceptedTables: Set<String>?
    /// Which kinds of events the observer accepts.
    let acceptsKind: @Sendable (DatabaseEventKind) -> Bool
    var log: [Callback] = []
    var violations: [String] = []
    /// Set by the oracle: the savepoint depth, the index of the statement that runs.
    let oracleState: OracleState

    fileprivate init(
        label: String, acceptedTables: Set<String>?, oracleState: OracleState, acceptsKind: @escaping @Sendable (DatabaseEventKind) -> Bool
    ) {
        self.label = label
        self.acceptedTables = acceptedTables
        self.oracleState = oracleState
        self.acceptsKind = acceptsKind
    }

    static func make(
        label: String, acceptedTables: Set<String>?, oracleState: OracleState, wantsPreUpdateEvents: Bool,
        acceptsKind: @escaping @Sendable (DatabaseEventKind) -> Bool = { _ in true }
    ) -> RecordingObserver {
        wantsPreUpdateEvents
            ? PreUpdateRecordingObserver(label: label, acceptedTables: acceptedTables, oracleState: oracleState, acceptsKind: acceptsKind)
            : RowEventRecordingObserver(label: label, acceptedTables: acceptedTables, oracleState: oracleState, acceptsKind: acceptsKind)
    }

    /// The observer, as a transaction observer.
    var asTransactionObserver: any TransactionObserver {
        // Both subclasses conform.
        self as! any TransactionObserver
    }

    /// Registers the observer with a writer.
    func register(with writer: any DatabaseWriter) {
        if let observer = self as? PreUpdateRecordingObserver {
            writer.add(transactionObserver: observer)
        } else if let observer = self as? RowEventRecordingObserver {
            writer.add(transactionObserver: observer)
        } else {
            preconditionFailure("a RecordingObserver is made by RecordingObserver.make")
        }
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        // Exact names: the kind must carry the table name as the schema spells it.
        (acceptedTables?.contains(eventKind.tableName) ?? true) && acceptsKind(eventKind)
    }

    private func checkNoSavepoint(_ what: String) {
        if oracleState.savepointDepth > 0 {
            violations.append("\(label): \(what) while a savepoint is open")
        }
    }

    fileprivate func recordWillChange(_ event: DatabasePreUpdateEvent) {
        checkNoSavepoint("databaseWillChange")
        log.append(
            .willChange(
                kind: event.kind, table: event.tableName, initialRowID: event.initialRowID, finalRowID: event.finalRowID,
                statement: oracleState.statementIndex))
    }

    func databaseDidChange(with event: DatabaseEvent) {
        checkNoSavepoint("databaseDidChange(with:)")
        log.append(.didChange(kind: event.kind, table: event.tableName, rowID: event.rowID))
        if stopsAfterFirstChange { asTransactionObserver.stopObservingDatabaseChangesUntilNextTransaction() }
    }

    /// Whether the observer stops observing changes after the first of each transaction.
    var stopsAfterFirstChange = false

    func databaseDidChange() {
        log.append(.didChangeWithoutEvent)
    }

    func databaseWillCommit() throws {
        log.append(.willCommit)
    }

    func databaseDidCommit(_ db: Database) {
        log.append(.didCommit)
    }

    func databaseDidRollback(_ db: Database) {
        log.append(.didRollback)
    }
}

/// A recording observer that implements `databaseWillChange(with:)`.
final class PreUpdateRecordingObserver: RecordingObserver, TransactionObserver {
    func databaseWillChange(with event: DatabasePreUpdateEvent) { recordWillChange(event) }
}

/// A recording observer that does not implement `databaseWillChange(with:)`.
final class RowEventRecordingObserver: RecordingObserver, TransactionObserver {}

/// What the oracle tells observers about what it is doing.
final class OracleState: Sendable {
    private let values = LockedState((savepointDepth: 0, statementIndex: 0))

    var savepointDepth: Int {
        get { values.withLock { $0.savepointDepth } }
        set { values.withLock { $0.savepointDepth = newValue } }
    }

    var statementIndex: Int {
        get { values.withLock { $0.statementIndex } }
        set { values.withLock { $0.statementIndex = newValue } }
    }
}

/// A started region observation and what it records.
final class RegionWatch {
    var spec: WatchSpec
    /// A region observation keeps the region it computed when it started: after its view
    /// is redefined, it is no longer checked.
    var isRetired = false
    /// The notifications so far, counted on the writer's queue.
    let count = LockedState(0)
    var lastCount = 0
    var cancellable: AnyDatabaseCancellable?
    init(spec: WatchSpec) { self.spec = spec }
}

/// A started value observation and what it records.
final class ValueWatch {
    var spec: WatchSpec
    /// The fetch, run again for the ground truth.
    let fetch: @Sendable (Database) throws -> [String]
    let values = LockedState<[[String]]>([])
    let errors = LockedState<[String]>([])
    var cancellable: AnyDatabaseCancellable?
    var lastCount = 0
    /// Whether the table it reads was dropped: it is no longer checked.
    var isRetired = false
    init(spec: WatchSpec, fetch: @escaping @Sendable (Database) throws -> [String]) {
        self.spec = spec
        self.fetch = fetch
    }
}
