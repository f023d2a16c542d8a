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
}
