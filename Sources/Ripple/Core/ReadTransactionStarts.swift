#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The read transactions that the readers of one ``DatabasePool`` are beginning, so that
/// the pool's writer never fails with `SQLITE_BUSY` because of its own readers.
///
/// In WAL mode, a connection that begins a read transaction reads the wal-index header,
/// which each commit writes in two copies. A reader that reads it while a commit writes
/// it finds the two copies different, takes the WAL write lock for a moment, and reads it
/// again under that lock. A write that begins at that moment finds the write lock taken
/// and fails at once with `SQLITE_BUSY` ("database is locked") under the default
/// ``Configuration/BusyMode/immediateError``. Measured with plain C and no Ripple: one
/// writer making transactions of five inserts and eight threads beginning read
/// transactions, on two cores, 8 to 266 of 20,000 writes failed so; none did when the
/// readers began their transactions under a lock that the writer held while it committed.
///
/// So each reader counts the steps that begin a read transaction (``counting(_:)``), and
/// the writer's busy handler tries again while one of them runs, or when one of them ended
/// since its last try (``OwnReadersBusyRule``): the write lock may only have been held by
/// a reader for that moment. A lock held by another process still fails the write at once
/// (after one more try), as `immediateError` says, unless the readers begin transactions
/// all the while, and then after ``OwnReadersBusyRule/maximumWait`` at most.
final class ReadTransactionStarts: Sendable {
    private let counts = LockedState(Counts())

    struct Counts: Equatable {
        /// The steps that may begin a read transaction, running now.
        var running = 0
        /// The steps that ended, ever (wrapping).
        var ended = 0
        /// The times the writer tried again for them (for tests: the writer waits).
        var writerWaits = 0
    }

    init() {}

    /// Runs `step`, a step that may begin a read transaction, counted.
    @inline(__always)
    func counting<T>(_ step: () -> T) -> T {
        counts.withLock { $0.running += 1 }
        defer {
            counts.withLock {
                $0.running -= 1
                $0.ended &+= 1
            }
        }
        return step()
    }

    /// The counts now.
    var current: Counts { counts.withLock { $0 } }

    /// The writer tries again for its readers.
    func writerDidWait() { counts.withLock { $0.writerWaits += 1 } }

    /// How many times the writer tried again for its readers.
    var writerWaitCount: Int { current.writerWaits }
}

/// Whether a pool's writer, refused a lock, tries again: the pure logic of its busy handler
/// (see ``ReadTransactionStarts``), confined to the writer's connection.
///
/// A reader that holds the write lock when a try fails was counted as running before it
/// took the lock, and is counted as ended only after it let it go. So, at the call that
/// follows a failed try, that reader is either still running or ended since the call
/// before that try: the rule tries again in both cases, and the first time, when it knows
/// no earlier call.
struct OwnReadersBusyRule {
    /// The longest time the writer keeps trying while its readers begin transactions.
    static let maximumWait: UInt64 = 1_000_000_000

    private var endedAtLastCall = 0
    private var firstCall: UInt64 = 0

    /// Whether to try again. `tries`: the tries that failed before this one, as SQLite
    /// counts them (0 at the first call for a lock); `now`: a monotonic time in nanoseconds.
    mutating func shouldRetry(tries: Int, counts: ReadTransactionStarts.Counts, now: UInt64) -> Bool {
        defer { endedAtLastCall = counts.ended }
        if tries == 0 {
            firstCall = now
            return true
        }
        guard now &- firstCall < Self.maximumWait else { return false }
        return counts.running > 0 || counts.ended != endedAtLastCall
    }
}

/// How a connection of a pool takes part in its ``ReadTransactionStarts``.
enum ReadStartsRole {
    /// A reader: counts its steps that may begin a read transaction.
    case counts(ReadTransactionStarts)
    /// The writer: its busy handler waits for those steps (``OwnReadersBusyRule``).
    case waitsFor(ReadTransactionStarts)
}
