import CSQLite
import Foundation

/// The connection's busy mode: what SQLite does when another connection holds a lock.
extension Database {
    func setUpBusyMode() {
        switch configuration.busyMode {
        case .immediateError:
            break
        case .timeout(let seconds):
            sqlite3_busy_timeout(sqliteConnection, CInt(max(0, min(seconds * 1000, Double(CInt.max)))))
        case .callback(let callback):
            installBusyHandler(BusyHandlerBox(otherwise: .callback(callback), ownReaders: nil))
        }
    }

    /// The busy mode of a pool's writer: it also tries again while the pool's readers may
    /// hold the write lock for a moment (see ``ReadTransactionStarts``), in every mode: the
    /// handler also serves ``stepAgainAfterOwnReaders(_:)``, where SQLite calls none.
    func setUpBusyMode(waitingFor starts: ReadTransactionStarts) {
        switch configuration.busyMode {
        case .timeout(let seconds):
            let nanoseconds = UInt64(max(0, seconds) * 1e9)
            installBusyHandler(BusyHandlerBox(otherwise: .timeout(nanoseconds: nanoseconds), ownReaders: starts))
        case .immediateError:
            installBusyHandler(BusyHandlerBox(otherwise: .fail, ownReaders: starts))
        case .callback(let callback):
            installBusyHandler(BusyHandlerBox(otherwise: .callback(callback), ownReaders: starts))
        }
    }

    /// Steps `statement` again after it failed with plain `SQLITE_BUSY` inside a read
    /// transaction, while the pool's readers may hold the write lock for a moment (a
    /// pool's writer only; see ``ReadTransactionStarts``). SQLite calls no busy handler
    /// there: a transaction that read cannot wait for the write lock, since a commit
    /// made meanwhile would leave it on a stale snapshot. A reader's moment commits
    /// nothing, and SQLite resumes the statement where it stopped; after another
    /// connection's commit, SQLite answers `SQLITE_BUSY_SNAPSHOT`, and the step fails.
    @inline(never)
    func stepAgainAfterOwnReaders(_ statement: OpaquePointer) -> CInt {
        // (A statement that SQLite stopped for the lock is still running: stepped again, it
        // resumes. One that ended would start over.)
        guard let box = busyHandlerBox,
            sqlite3_txn_state(sqliteConnection, nil) == SQLITE_TXN_READ,
            sqlite3_stmt_busy(statement) != 0
        else { return SQLITE_BUSY }
        var code = SQLITE_BUSY
        var tries = 0
        while code == SQLITE_BUSY && box.waitsForOwnReaders(tries: tries) {
            code = sqlite3_step(statement)
            tries += 1
        }
        return code
    }

    private func installBusyHandler(_ box: BusyHandlerBox) {
        if let busyHandlerBox { _CallbackContext.revoke(busyHandlerBox) }
        busyHandlerBox = box
        sqlite3_busy_handler(
            sqliteConnection,
            { context, tries in
                _CallbackContext<BusyHandlerBox>.object(context).shouldRetry(tries: Int(tries)) ? 1 : 0
            }, _CallbackContext.unretained(box))
    }
}

/// What a connection's busy handler decides with: the configuration's busy mode, and for a
/// pool's writer, its readers (see ``ReadTransactionStarts``). Only the connection's busy
/// handler uses it, from inside the connection's statements: confined to its queue.
final class BusyHandlerBox {
    enum Otherwise {
        case fail
        case timeout(nanoseconds: UInt64)
        case callback(@Sendable (Int) -> Bool)
    }

    let otherwise: Otherwise
    let ownReaders: ReadTransactionStarts?
    private var rule = OwnReadersBusyRule()
    private var firstCall: UInt64 = 0
    private var triesForOwnReaders = 0

    init(otherwise: Otherwise, ownReaders: ReadTransactionStarts?) {
        self.otherwise = otherwise
        self.ownReaders = ownReaders
    }

    /// Whether SQLite tries again, called by the busy handler.
    func shouldRetry(tries: Int) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        if tries == 0 {
            firstCall = now
            triesForOwnReaders = 0
        }
        if waitsForOwnReaders(tries: tries, now: now) {
            triesForOwnReaders += 1
            return true
        }
        switch otherwise {
        case .fail:
            return false
        case .timeout(let nanoseconds):
            guard now &- firstCall < nanoseconds else { return false }
            usleep(1000)
            return true
        case .callback(let callback):
            // The tries made for the pool's readers are not the callback's.
            return callback(tries - triesForOwnReaders)
        }
    }

    /// Whether to try again because the pool's readers may hold the lock for a moment
    /// (see ``OwnReadersBusyRule``); waits a little first. False for other connections.
    func waitsForOwnReaders(tries: Int, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        guard let ownReaders, rule.shouldRetry(tries: tries, counts: ownReaders.current, now: now) else {
            return false
        }
        ownReaders.writerDidWait()
        // The reader that holds the lock may wait for a core: let it have one.
        if tries < 3 { sched_yield() } else { usleep(50) }
        return true
    }
}
