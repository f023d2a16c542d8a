/// A sequence of elements read lazily, one at a time, where reading may throw.
///
/// Database cursors stream rows without loading them all in memory:
///
/// ```swift
/// let names = try String.fetchCursor(db, sql: "SELECT name FROM player")
/// while let name = try names.next() {
///     print(name)
/// }
/// ```
///
/// A cursor is only valid inside the database access that created it.
///
/// Cursors come with lazy adapters (`map`, `filter`, `prefix`, `enumerated`...) and
/// algorithms (`contains`, `reduce`, `max`, `suffix`...) in the manner of `Sequence`.
///
/// ## Topics
///
/// ### Supporting Types
///
/// - ``AnyCursor``
/// - ``DropFirstCursor``
/// - ``DropWhileCursor``
/// - ``EnumeratedCursor``
/// - ``FilterCursor``
/// - ``FlattenCursor``
/// - ``MapCursor``
/// - ``PrefixCursor``
/// - ``PrefixWhileCursor``
public protocol Cursor<Element>: AnyObject {
    associatedtype Element
    /// The next element, or nil at the end; nil again after that.
    func next() throws -> Element?

    /// Calls `body` on each remaining element. The default calls ``next()`` in a loop; a
    /// cursor that can hand out its elements faster may declare its own, and `Array`,
    /// `Set`, `Dictionary` and the lazy adapters built from it use it.
    func forEach(_ body: (Element) throws -> Void) throws

    /// Appends the remaining elements to `collection`: `Array(cursor)` and `fetchAll` use
    /// it. The default calls ``forEach(_:)``; a database cursor moves the values it makes.
    func _append<C: RangeReplaceableCollection>(to collection: inout C) throws where C.Element == Element
}

extension Statement {
    /// Starts a cursor: resets, binds, and tells the connection a statement starts. (A
    /// statement without columns, `CREATE TABLE` or `INSERT`, runs and gives no row, as in
    /// GRDB: SQLite has no row for it.)
    func startCursor(arguments: StatementArguments?) throws {
        try database.checkOpen()
        try prepareExecution(arguments)
        database.prepareReadRecording(of: self)
        try database.statementWillStart(self)
    }

    /// One step of a cursor: true when a row is available. At the end or on error, resets
    /// the statement and tells the connection; the cursor must not step again.
    @usableFromInline
    func cursorStep() throws -> Bool {
        // A cursor kept after its access must not step: the connection may be in use.
        try database.checkOpen()
        let hasRow: Bool
        do {
            hasRow = try step()
        } catch {
            throw cursorStepDidFail(error)
        }
        // After the first step: SQLite may have compiled the statement again, and what it
        // reads is the new report's. (Tested before it is cleared: clearing an enum with a
        // payload costs a call on every row, W2a.)
        if observation.pendingReadRegion != nil { recordPendingReadRegion() }
        if hasRow { return true }
        return try cursorDidEnd()
    }

    /// What the first step of a recording cursor read (see `Database.prepareReadRecording(of:)`).
    @inline(never)
    private func recordPendingReadRegion() {
        switch observation.pendingReadRegion {
        case .report?: database.recordReportedRead(of: self)
        case .precise(let region)?: database.recordRead(region)
        case nil: break
        }
        observation.pendingReadRegion = nil
    }

    /// The end of a cursor: the statement is reset, and the connection told. (Out of line:
    /// the per-row path stays small, W2a.)
    @inline(never)
    private func cursorDidEnd() throws -> Bool {
        reset()
        try database.statementDidFinish(self)
        return false
    }

    @inline(never)
    private func cursorStepDidFail(_ error: any Error) -> any Error {
        observation.pendingReadRegion = nil
        reset()
        return database.statementDidFail(self, error: error)
    }

    /// Ends the execution of a cursor dropped before its end: SQLite completes what the
    /// statement started when it is reset (an `INSERT ... RETURNING` commits then, outside
    /// of a transaction), and the connection is told the statement ended.
    func abandonCursor() {
        // Released outside of its access: the statement is reset when it runs again.
        guard AccessChain.holds(database) else { return }
        reset()
        // Nobody to throw to: an observer's veto of an empty transaction cannot happen
        // here, since the statement's own transaction, if any, was not empty.
        try? database.statementDidFinish(self)
    }
}

/// A cursor of rows; the row it hands out is reused on each step (see ``Row/copy()``).
public final class RowCursor: Cursor {
    /// The statement the cursor reads.
    public let statement: Statement
    /// The row, read in place from the statement.
    public var row: Row { state.row }

    /// The mutable state, read at each `next()`. Debug builds keep the runtime's
    /// exclusivity checks; release builds skip them (Shortcuts table, Benchmarks/README.md).
    #if DEBUG
    private var state: State
    #else
    @exclusivity(unchecked) private var state: State
    #endif

    private struct State {
        /// The row handed out: `baseRow`, or `baseRow` adapted.
        var row: Row
        /// The statement row.
        var baseRow: Row
        var isDone = false
        /// The error of the step that failed: thrown again by each later `next()`.
        var failure: (any Error)?
    }

    /// The adapter of the rows (see ``RowAdapter``).
    private let adapter: (any RowAdapter)?

    init(statement: Statement, arguments: StatementArguments?, adapter: (any RowAdapter)? = nil) throws {
        self.statement = statement
        let row = Row(statement: statement)
        self.adapter = adapter
        self.state = State(
            row: try adapter.map { Row(base: row, layout: try $0.layout(forColumns: statement.columnNames)) } ?? row,
            baseRow: row)
        try statement.startCursor(arguments: arguments)
    }

    deinit {
        if !state.isDone { statement.abandonCursor() }
    }

    public func next() throws -> Row? {
        if state.isDone {
            if let failure = state.failure { throw failure }
            return nil
        }
        do {
            if try statement.cursorStep() {
                // SQLite may have compiled the statement again, with other columns.
                if !state.baseRow.describesColumns(of: statement) { try renewRow() }
                return state.row
            }
        } catch {
            state.isDone = true
            state.failure = error
            throw error
        }
        state.isDone = true
        return nil
    }

    private func renewRow() throws {
        let baseRow = Row(statement: statement)
        state.row = try adapter.map { Row(base: baseRow, layout: try $0.layout(forColumns: statement.columnNames)) } ?? baseRow
        state.baseRow = baseRow
    }
}

/// What the cursors of values share: the statement, and resetting it when the cursor
/// is dropped before its end.
public class StatementValueCursorBase {
    /// The statement the cursor reads.
    public let statement: Statement
    /// Read at each step. Debug builds keep the runtime's exclusivity checks; release
    /// builds skip them (Shortcuts table, Benchmarks/README.md).
    #if DEBUG
    @usableFromInline var isDone = false
    #else
    @exclusivity(unchecked) @usableFromInline var isDone = false
    #endif
    /// The error of the step that failed: thrown again by each later step, rather than an
    /// end that would look like the last row (the statement does not run again).
    @usableFromInline var failure: (any Error)?
    /// The column of the values: the first one, or the first one of an adapter's.
    @usableFromInline let column: CInt

    @usableFromInline
    init(statement: Statement, arguments: StatementArguments?, adapter: (any RowAdapter)? = nil) throws {
        self.statement = statement
        if let adapter {
            guard let column = try adapter.layout(forColumns: statement.columnNames).baseIndexes.first else {
                throw DatabaseError(message: "The row adapter leaves no column to read a value from")
            }
            self.column = CInt(column)
        } else {
            self.column = 0
        }
        try statement.startCursor(arguments: arguments)
    }

    deinit {
        if !isDone { statement.abandonCursor() }
    }

    /// Steps; true when a row is available.
    @inlinable
    final func step() throws -> Bool {
        if isDone { return try stepAfterEnd() }
        do {
            if try statement.cursorStep() { return true }
        } catch {
            throw stepDidFail(error)
        }
        isDone = true
        return false
    }

    // (Out of line, as the cursor's end: the inlined step stays small, W9b.)
    @usableFromInline @inline(never)
    final func stepAfterEnd() throws -> Bool {
        if let failure { throw failure }
        return false
    }

    @usableFromInline @inline(never)
    final func stepDidFail(_ error: any Error) -> any Error {
        isDone = true
        failure = error
        return error
    }
}

extension Cursor where Self: StatementValueCursorBase {
    // Moves each value into the collection, where the protocol's default copies it.
    @inlinable
    public func _append<C: RangeReplaceableCollection>(to collection: inout C) throws where C.Element == Element {
        while let value = try next() { collection.append(value) }
    }
}

/// A cursor of the values of the first column.
public final class DatabaseValueCursor<Value: DatabaseValueConvertible>: StatementValueCursorBase, Cursor {
    @inlinable
    public func next() throws -> Value? {
        guard try step() else { return nil }
        return try Value.decode(statement: statement, index: column)
    }
}

/// A cursor of the values of the first column, read straight from the statement.
public final class FastDatabaseValueCursor<Value: DatabaseValueConvertible & StatementColumnConvertible>: StatementValueCursorBase, Cursor {
    @inlinable
    public func next() throws -> Value? {
        guard try step() else { return nil }
        return try Value.decode(statement: statement, index: column)
    }
}

/// A cursor of optional values of the first column, read straight from the statement.
public final class FastOptionalValueCursor<Value: DatabaseValueConvertible & StatementColumnConvertible>: StatementValueCursorBase, Cursor {
    @inlinable
    public func next() throws -> Value?? {
        guard try step() else { return nil }
        return .some(try Value.decodeIfPresent(statement: statement, index: column))
    }
}
