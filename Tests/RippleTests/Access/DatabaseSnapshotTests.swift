import XCTest

@testable import Ripple

/// `DatabasePool.makeSnapshot()`: a reader of an unchanging content.
final class DatabaseSnapshotTests: XCTestCase {
    private func makePool() throws -> DatabasePool {
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self))
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO player (name) VALUES ('Arthur')")
        }
        return dbPool
    }

    private func count(_ reader: some DatabaseReader) throws -> Int {
        try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
    }

    func testASnapshotDoesNotSeeLaterCommits() throws {
        let dbPool = try makePool()
        let snapshot = try dbPool.makeSnapshot()
        try dbPool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')") }
        XCTAssertEqual(try count(dbPool), 2)
        XCTAssertEqual(try count(snapshot), 1)
        try dbPool.write { db in try db.execute(sql: "DELETE FROM player") }
        XCTAssertEqual(try count(snapshot), 1)
        XCTAssertEqual(try snapshot.unsafeRead { db in try String.fetchAll(db, sql: "SELECT name FROM player") }, ["Arthur"])
        XCTAssertEqual(snapshot.path, dbPool.path)
        XCTAssertTrue(snapshot.configuration.readonly)
    }

    func testASnapshotMadeFromAWriteAccessSeesExactlyItsState() throws {
        let dbPool = try makePool()
        let snapshot = try dbPool.writeWithoutTransaction { db in
            try db.inTransaction {
                try db.execute(sql: "DELETE FROM player")
                return .commit
            }
            return try dbPool.makeSnapshot()
        }
        try dbPool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')") }
        XCTAssertEqual(try count(snapshot), 0)
    }

    func testASnapshotCanNotWrite() throws {
        let snapshot = try makePool().makeSnapshot()
        assertDatabaseError(.SQLITE_READONLY) {
            try snapshot.read { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Dan')") }
        }
        // A failed access leaves the snapshot as it was.
        XCTAssertEqual(try count(snapshot), 1)
    }

    func testAsyncReads() async throws {
        let dbPool = try makePool()
        let snapshot = try dbPool.makeSnapshot()
        try await dbPool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Eve')") }
        let asyncCount = try await snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
        XCTAssertEqual(asyncCount, 1)
        let callbackCount = await withCheckedContinuation { continuation in
            snapshot.asyncRead { result in
                continuation.resume(returning: (try? result.get()).flatMap { db in try? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") })
            }
        }
        XCTAssertEqual(callbackCount, 1)
    }

    func testASnapshotWhoseTransactionEndedThrows() throws {
        let snapshot = try makePool().makeSnapshot()
        try snapshot.read { db in try db.execute(sql: "COMMIT") }
        let error = assertDatabaseError(.SQLITE_MISUSE) { try self.count(snapshot) }
        XCTAssertEqual(error?.message, "the snapshot's transaction was ended: the snapshot is no longer usable")
    }

    func testAClosedSnapshotThrows() throws {
        let snapshot = try makePool().makeSnapshot()
        try snapshot.close()
        assertDatabaseError(.SQLITE_MISUSE) { try self.count(snapshot) }
        assertDatabaseError(.SQLITE_MISUSE) { try snapshot.unsafeRead { try Int.fetchOne($0, sql: "SELECT 1") } }
    }

    func testUnsafeReadRethrowsOnlyTheErrorsOfItsClosure() throws {
        let snapshot = try makePool().makeSnapshot()
        // No `try`: as GRDB's, a closure that does not throw makes a call that does not.
        let description = snapshot.unsafeRead { db in db.description }
        XCTAssertFalse(description.isEmpty)
        XCTAssertEqual(try snapshot.unsafeRead { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") }, 1)
    }

    func testSnapshotsAreNumberedInTheirLabels() throws {
        let dbPool = try makePool()
        XCTAssertEqual(try dbPool.makeSnapshot().unsafeRead { $0.description }, "Ripple.DatabasePool.snapshot.1")
        XCTAssertEqual(try dbPool.makeSnapshot().unsafeRead { $0.description }, "Ripple.DatabasePool.snapshot.2")
        var configuration = Configuration()
        configuration.label = "Toreador"
        let labeled = try DatabasePool(path: makeTemporaryDatabasePath(self), configuration: configuration)
        let snapshot = try labeled.makeSnapshot()
        snapshot.unsafeRead { db in
            XCTAssertEqual(db.description, "Toreador.snapshot.1")
            XCTAssertEqual(db.configuration.label, "Toreador")
        }
    }

    func testUnsafeReadOfASnapshotWhoseTransactionEndedIsAFatalError() throws {
        try assertFatalError(
            inScenario: "RippleTests.SnapshotFatalErrorScenarios/testUnsafeReadAfterCommit",
            "The snapshot's transaction was ended")
    }

    func testAnObservationOfASnapshotDeliversItsOneValue() throws {
        let dbPool = try makePool()
        let snapshot = try dbPool.makeSnapshot()
        let values = ValueCollector<Int>()
        let cancellable =
            ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
            .start(in: snapshot, scheduling: .async(onQueue: DispatchQueue(label: "values")), onError: { XCTFail("\($0)") }, onChange: values.append)
        XCTAssertEqual(values.wait { $0.count == 1 }, [1])
        try dbPool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Fiona')") }
        // The snapshot does not change: no second value.
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertEqual(values.values, [1])
        cancellable.cancel()
    }

    func testMakingASnapshotInsideATransactionIsAFatalError() throws {
        try assertFatalError(
            inScenario: "RippleTests.SnapshotFatalErrorScenarios/testMakeSnapshotInsideTransaction",
            "makeSnapshot() must not be called from inside a transaction")
    }
}
