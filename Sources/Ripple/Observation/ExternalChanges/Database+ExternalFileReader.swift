import CSQLite
import Foundation

/// The real file reader of the checks: the connection reads its files through SQLite's own
/// handles (another descriptor on the database's files, once closed, would drop the
/// process's POSIX locks on them), without a lock, and the commit log with SQL that
/// observers do not hear of.
extension Database: ExternalFileReader {
    /// SQLite's own handle of the main database file (`SQLITE_FCNTL_FILE_POINTER`) or of its
    /// journal or write-ahead log (`SQLITE_FCNTL_JOURNAL_POINTER`), with its methods; nil
    /// when the file is not open.
    private func sqliteFile(_ opcode: CInt) -> (UnsafeMutablePointer<sqlite3_file>, sqlite3_io_methods)? {
        guard let connection = sqliteConnection else { return nil }
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(connection, "main", opcode, &file) == SQLITE_OK,
            let file, let methods = file.pointee.pMethods
        else { return nil }
        return (file, methods.pointee)
    }

    /// Reads the write-ahead log through SQLite's own file handle.
    func withWALFile<T>(_ body: (WALFile.Read) -> T) -> T? {
        guard let (file, methods) = sqliteFile(SQLITE_FCNTL_JOURNAL_POINTER), let xRead = methods.xRead else { return nil }
        return body { offset, buffer in
            xRead(file, buffer.baseAddress, CInt(buffer.count), offset) == SQLITE_OK
        }
    }

    /// What the database header says, read through SQLite's file handle without a lock
    /// (https://www.sqlite.org/fileformat2.html#the_database_header): bytes 18 and 19 are 2
    /// in WAL mode, bytes 24 to 27 the file change counter. Nil when the file cannot be read.
    func readDatabaseHeader() -> DatabaseHeader? {
        guard let (file, methods) = sqliteFile(SQLITE_FCNTL_FILE_POINTER), let xRead = methods.xRead else { return nil }
        var bytes = [UInt8](repeating: 0, count: 10)
        let code = bytes.withUnsafeMutableBytes { xRead(file, $0.baseAddress, 10, 18) }
        // (A short read fills the rest with zeros: the file of a new database is empty, and
        // its counter is zero.)
        guard code == SQLITE_OK || code == SQLITE_IOERR | (2 << 8) else { return nil }  // SQLITE_IOERR_SHORT_READ
        return DatabaseHeader(isWAL: bytes[0] == 2 && bytes[1] == 2, changeCounter: WALFile.bigEndianWord(bytes, 6))
    }

    /// The wal-index header, read through SQLite's own mapping of the `-shm` file (the VFS's
    /// `xShmMap`): no other descriptor is opened on the database's files.
    func readWALIndexHeader() -> WALIndexHeader? {
        walIndexRegion().flatMap { WALIndexHeader.read($0) }
    }

    func readWALIndexHeaderAndBackfill() -> (header: WALIndexHeader?, backfill: Int)? {
        walIndexRegion().map { (WALIndexHeader.read($0), WALIndexHeader.readBackfill($0)) }
    }

    /// The first region of the wal-index, of 32 KiB, already mapped by the connection
    /// (bExtend 0: nothing created); nil when it is not.
    private func walIndexRegion() -> UnsafeMutableRawPointer? {
        guard let (file, methods) = sqliteFile(SQLITE_FCNTL_FILE_POINTER), methods.iVersion >= 2,
            let shmMap = methods.xShmMap
        else { return nil }
        var region: UnsafeMutableRawPointer?
        guard
            withUnsafeMutablePointer(
                to: &region,
                { pointer in
                    pointer.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 1) { shmMap(file, 0, 32768, 0, $0) }
                }) == SQLITE_OK
        else { return nil }
        return region
    }

    /// Whether a connection other than this one (of this process, or another) holds the
    /// write lock of the database file (SQLite's RESERVED lock or more: between its first
    /// write and the end of its commit), as SQLite's VFS tells from the file locks, without
    /// taking one (`xCheckReservedLock`). Nil when it cannot be told.
    func otherConnectionHoldsWriteLock() -> Bool? {
        guard let (file, methods) = sqliteFile(SQLITE_FCNTL_FILE_POINTER), let checkReservedLock = methods.xCheckReservedLock
        else { return nil }
        var isHeld: CInt = 0
        guard checkReservedLock(file, &isHeld) == SQLITE_OK else { return nil }
        return isHeld != 0
    }

    func ownTransactionHoldsLock() -> Bool {
        guard let connection = sqliteConnection else { return false }
        return sqlite3_txn_state(connection, "main") != SQLITE_TXN_NONE
    }

    func transactionWritesMainDatabaseOnly() -> Bool {
        guard let connection = sqliteConnection else { return false }
        return sqlite3_txn_state(connection, "temp") != SQLITE_TXN_WRITE && sqlite3_db_name(connection, 2) == nil
    }

    /// SQLite's count of the pages this connection wrote to its database files
    /// (`SQLITE_DBSTATUS_CACHE_WRITE`).
    func pagesWritten() -> Int64 {
        Self.pagesWritten(sqliteConnection)
    }

    static func pagesWritten(_ connection: OpaquePointer?) -> Int64 {
        var current: CInt = 0
        var highwater: CInt = 0
        sqlite3_db_status(connection, SQLITE_DBSTATUS_CACHE_WRITE, &current, &highwater, 0)
        return Int64(current)
    }

    func walLogEntries(generation: UInt32, from frame: Int) -> [ExternalChangeVerdict.Entry] {
        withUnobservedReadTransaction {
            readLogEntries(CommitLog.walEntriesSQL, Int64(generation), Int64(frame))
        } ?? []
    }

    func rollbackLogEntries(from counter: UInt32) -> (counter: UInt32, entries: [ExternalChangeVerdict.Entry])? {
        withUnobservedReadTransaction { () -> (counter: UInt32, entries: [ExternalChangeVerdict.Entry])? in
            guard let current = readDatabaseHeader()?.changeCounter else { return nil }
            return (current, readLogEntries(CommitLog.rollbackEntriesSQL, Int64(counter), nil))
        } ?? nil
    }

    /// The entries that `sql` selects, with its two arguments; empty when the log does not
    /// exist or cannot be read.
    private func readLogEntries(_ sql: String, _ first: Int64?, _ second: Int64?) -> [ExternalChangeVerdict.Entry] {
        guard let tracker = state.value.observation.externalChanges, let statement = tracker.statement(sql) else { return [] }
        statement.bind(1, first)
        if let second { statement.bind(2, second) }
        return statement.rows { row in
            ExternalChangeVerdict.Entry(
                key: CommitKey(
                    generation: sqlite3_column_type(row, 0) == SQLITE_NULL ? nil : UInt32(truncatingIfNeeded: sqlite3_column_int64(row, 0)),
                    previous: sqlite3_column_int64(row, 1)),
                writer: sqlite3_column_int64(row, 2),
                tables: CommitLog.decode(UnobservedStatement.text(row, 3)))
        } ?? []
    }
}
