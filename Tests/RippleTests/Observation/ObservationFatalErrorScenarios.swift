import XCTest

@testable import Ripple

final class ObservationFatalErrorScenarios: XCTestCase {
    func testUseConnectionInDidChange() throws {
        guard isFatalScenario else { return }
        final class BadObserver: TransactionObserver {
            var db: Database?
            func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
            func databaseDidChange(with event: DatabaseEvent) { _ = try? Int.fetchOne(db!, sql: "SELECT 1") }
            func databaseDidCommit(_ db: Database) {}
            func databaseDidRollback(_ db: Database) {}
        }
        let dbQueue = try DatabaseQueue()
        let observer = BadObserver()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t(a)")
            observer.db = db
            db.add(transactionObserver: observer)
            try db.execute(sql: "INSERT INTO t VALUES (1)")
        }
    }
}
