import CSQLite

/// What the fast path of a statement row reads its values through: the statement handle,
/// and the identity of the statement's connection.
///
/// A row holds an optional handle: nil for a copied row. One test then tells a statement
/// row from a copied one and gives the fast path both values, where two optionals cost a
/// test each on every value read (W2a, W2b: 6 columns a row). Rows and the decoder of
/// `Decodable` records share its checks.
@usableFromInline
struct StatementRowHandle {
    /// The statement, whose current row is read in place.
    @usableFromInline let sqliteStatement: OpaquePointer
    /// The identity of the statement's connection, compared with the accesses the current
    /// thread runs (see ``AccessChain``); never dereferenced.
    @usableFromInline let connectionIdentity: UnsafeRawPointer

    @usableFromInline
    init(sqliteStatement: OpaquePointer, connectionIdentity: UnsafeRawPointer) {
        self.sqliteStatement = sqliteStatement
        self.connectionIdentity = connectionIdentity
    }

    /// Stops the process unless the current thread runs an access to the connection: the
    /// statement may be stepping on another thread, or be gone.
    @inlinable @inline(__always)
    func checkAccess() {
        if !Row.holdsAccess(connectionIdentity) { Row.rowUsedOutsideOfAccess() }
    }

    /// `index` as the column index SQLite takes, for a statement of `count` columns; out
    /// of range is a programmer error.
    @inlinable @inline(__always)
    static func columnIndex(_ index: Int, count: Int) -> CInt {
        Row.checkIndex(index, count: count)
        // In range, and `count` comes from `sqlite3_column_count`: the index fits a CInt.
        return CInt(truncatingIfNeeded: index)
    }
}
