import XCTest

@testable import Ripple

final class SnapshotFatalErrorScenarios: XCTestCase {
    func testMakeSnapshotInsideTransaction() throws {
        guard isFatalScenario else { return }
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self))
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE t(a)")
            _ = try dbPool.makeSnapshot()
        }
    }

    func testUnsafeReadAfterCommit() throws {
        guard isFatalScenario else { return }
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self))
        let snapshot = try dbPool.makeSnapshot()
        try snapshot.read { db in try db.execute(sql: "COMMIT") }
        snapshot.unsafeRead { _ in }
    }
}
