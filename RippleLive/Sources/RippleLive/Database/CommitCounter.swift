import NIOConcurrencyHelpers
import Ripple

/// Counts the commits the writer is told of: its own transactions, and the checks that
/// found commits of other connections and processes (Ripple tells those to transaction
/// observers as `databaseDidCommit(_:)` too, once per check however many it found). The
/// count is the commit sequence of events' ids.
///
/// It observes no row change: `observes(eventsOfKind:)` is false, so that counting adds
/// nothing to the statements' work.
final class CommitCounter: TransactionObserver, Sendable {
    private let count = NIOLockedValueBox<UInt64>(0)

    /// The number of commits so far. Exact on the writer's queue, between transactions.
    var value: UInt64 {
        count.withLockedValue { $0 }
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) {
        count.withLockedValue { $0 += 1 }
    }
    func databaseDidRollback(_ db: Database) {}
}
