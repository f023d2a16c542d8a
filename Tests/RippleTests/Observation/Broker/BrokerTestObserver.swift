@testable import Ripple

/// An observer for the broker's pure parts: they only keep its entry.
final class BrokerTestObserver: TransactionObserver {
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) {}
    func databaseDidRollback(_ db: Database) {}
}

extension ObserverEntry {
    /// An entry whose observer is kept, for tests of values that hold entries.
    static func forTest(id: Int) -> ObserverEntry {
        ObserverEntry(id: id, observer: BrokerTestObserver(), extent: .databaseLifetime)
    }
}
