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
public protocol Cursor<Element>: AnyObject {
    associatedtype Element
    /// The next element, or nil at the end.
    func next() throws -> Element?
}

extension Cursor {
    /// Calls `body` on each remaining element.
    public func forEach(_ body: (Element) throws -> Void) throws {
        while let element = try next() { try body(element) }
    }

    /// Whether an element satisfies `predicate`; stops at the first one.
    public func contains(where predicate: (Element) throws -> Bool) throws -> Bool {
        while let element = try next() {
            if try predicate(element) { return true }
        }
        return false
    }

    /// The first element that satisfies `predicate`.
    public func first(where predicate: (Element) throws -> Bool) throws -> Element? {
        while let element = try next() {
            if try predicate(element) { return element }
        }
        return nil
    }

    /// Combines the remaining elements.
    public func reduce<Result>(_ initial: Result, _ combine: (Result, Element) throws -> Result) throws -> Result {
        var result = initial
        while let element = try next() { result = try combine(result, element) }
        return result
    }

    /// A cursor of transformed elements, transformed lazily.
    public func map<T>(_ transform: @escaping (Element) throws -> T) -> MapCursor<Self, T> {
        MapCursor(self, transform)
    }

    /// A cursor of the elements that satisfy `isIncluded`, filtered lazily.
    public func filter(_ isIncluded: @escaping (Element) throws -> Bool) -> FilterCursor<Self> {
        FilterCursor(self, isIncluded)
    }
}

/// A cursor that transforms the elements of another.
public final class MapCursor<Base: Cursor, Element>: Cursor {
    private let base: Base
    private let transform: (Base.Element) throws -> Element
    init(_ base: Base, _ transform: @escaping (Base.Element) throws -> Element) {
        self.base = base
        self.transform = transform
    }
    public func next() throws -> Element? {
        try base.next().map(transform)
    }
}

/// A cursor of the elements of another that satisfy a predicate.
public final class FilterCursor<Base: Cursor>: Cursor {
    private let base: Base
    private let isIncluded: (Base.Element) throws -> Bool
    init(_ base: Base, _ isIncluded: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.isIncluded = isIncluded
    }
    public func next() throws -> Base.Element? {
        while let element = try base.next() {
            if try isIncluded(element) { return element }
        }
        return nil
    }
}

extension Array {
    /// The remaining elements of a cursor.
    @inlinable
    public init<C: Cursor>(_ cursor: C) throws where C.Element == Element {
        self.init()
        while let element = try cursor.next() { append(element) }
    }
}

extension Set {
    /// The remaining elements of a cursor.
    @inlinable
    public init<C: Cursor>(_ cursor: C) throws where C.Element == Element {
        self.init()
        while let element = try cursor.next() { insert(element) }
    }
}

extension Statement {
    /// Starts a cursor: resets, binds, and tells the connection a statement starts.
    func startCursor(arguments: StatementArguments?, requiresColumns: Bool) throws {
        try database.checkOpen()
        try prepareExecution(arguments)
        if requiresColumns && columnCount == 0 {
            throw DatabaseError.misuse("statement returns no column", sql: sql, arguments: self.arguments)
        }
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
        case .report?: database.recordRead(report.readRegion)
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
    ///
    /// Exclusivity: unchecked, as `isDone`. The runtime's check of this public field at
    /// each `next()` costs 100 instructions per row, 4% of W2a (callgrind, W2a --quick:
    /// 4.1M of 101.6M instructions in swift_beginAccess and its callees, 40,000 rows).
    @exclusivity(unchecked) public private(set) var row: Row
    // @exclusivity(unchecked): see the measurement at Database's fields.
    @exclusivity(unchecked) private var isDone = false

    /// The adapter of the rows (see ``RowAdapter``), and the statement row it adapts.
    private let adapter: (any RowAdapter)?
    private var baseRow: Row

    init(statement: Statement, arguments: StatementArguments?, adapter: (any RowAdapter)? = nil) throws {
        self.statement = statement
        let row = Row(statement: statement)
        self.baseRow = row
        self.adapter = adapter
        self.row = try adapter.map { Row(base: row, layout: try $0.layout(forColumns: statement.columnNames)) } ?? row
        try statement.startCursor(arguments: arguments, requiresColumns: false)
    }

    deinit {
        if !isDone { statement.abandonCursor() }
    }

    public func next() throws -> Row? {
        if isDone { return nil }
        do {
            if try statement.cursorStep() {
                // SQLite may have compiled the statement again, with other columns.
                if !baseRow.describesColumns(of: statement) { try renewRow() }
                return row
            }
        } catch {
            isDone = true
            throw error
        }
        isDone = true
        return nil
    }

    private func renewRow() throws {
        baseRow = Row(statement: statement)
        row = try adapter.map { Row(base: baseRow, layout: try $0.layout(forColumns: statement.columnNames)) } ?? baseRow
    }
}

/// What the cursors of values share: the statement, and resetting it when the cursor
/// is dropped before its end.
public class StatementValueCursorBase {
    /// The statement the cursor reads.
    public let statement: Statement
    @exclusivity(unchecked) @usableFromInline var isDone = false
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
        try statement.startCursor(arguments: arguments, requiresColumns: true)
    }

    deinit {
        if !isDone { statement.abandonCursor() }
    }

    /// Steps; true when a row is available.
    @inlinable
    final func step() throws -> Bool {
        if isDone { return false }
        do {
            if try statement.cursorStep() { return true }
        } catch {
            isDone = true
            throw error
        }
        isDone = true
        return false
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
