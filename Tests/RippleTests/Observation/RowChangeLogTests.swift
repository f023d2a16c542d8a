import XCTest

@testable import Ripple

/// `RowChangeLog`: what the row callbacks record without the broker, tested without SQLite.
final class RowChangeLogTests: XCTestCase {
    // Name pointers as SQLite passes them: stable for a table while a statement runs.
    private let main = UnsafeMutablePointer<CChar>.allocate(capacity: 8)
    private let player = UnsafeMutablePointer<CChar>.allocate(capacity: 8)
    private let team = UnsafeMutablePointer<CChar>.allocate(capacity: 8)

    override func tearDown() {
        main.deallocate()
        player.deallocate()
        team.deallocate()
    }

    private func makeLog(users: [Bool] = [true, false]) -> RowChangeLog {
        var log = RowChangeLog()
        for hasUsers in users {
            log.appendSlot(RowChangeLog.Slot(hasUsers: hasUsers, hasRowWatchers: false, hasPreUpdateUsers: false))
        }
        return log
    }

    private func describe(_ log: RowChangeLog) -> [String] {
        log.events.map { "\($0.kind) \($0.slot) \($0.rowID) origin \($0.origin.rawValue)" }
    }

    func testSlotsAreFoundByThePointersSQLitePassedLast() {
        var log = makeLog()
        XCTAssertNil(log.knownSlotIndex(databaseName: main, tableName: player))
        log.setPointers(ofSlot: 1, databaseName: main, tableName: player)
        XCTAssertEqual(log.knownSlotIndex(databaseName: main, tableName: player), 1)
        XCTAssertNil(log.knownSlotIndex(databaseName: main, tableName: team))
        // Another database with the same table pointer is another table.
        XCTAssertNil(log.knownSlotIndex(databaseName: team, tableName: player))
    }

    func testEachKindOfChangeBecomesItsEvents() {
        var log = makeLog()
        log.record(slot: 0, kind: .insert, initialRowID: 0, finalRowID: 7)
        log.record(slot: 0, kind: .update, initialRowID: 7, finalRowID: 7)
        log.record(slot: 0, kind: .delete, initialRowID: 7, finalRowID: 0)
        XCTAssertEqual(describe(log), ["insert 0 7 origin 1", "update 0 7 origin 4", "delete 0 7 origin 2"])
        XCTAssertEqual(log.slots[0].changedKinds, [.insert, .update, .delete])
    }

    func testAnUpdateThatMovesARowIsADeletionAndAnInsertion() {
        var log = makeLog()
        log.record(slot: 0, kind: .update, initialRowID: 1, finalRowID: 2)
        // Told to the observers that accepted the update (origin 4).
        XCTAssertEqual(describe(log), ["delete 0 1 origin 4", "insert 0 2 origin 4"])
        XCTAssertEqual(log.slots[0].changedKinds, [.delete, .insert])
    }

    func testATableWithoutUsersGetsKindsButNoEvents() {
        var log = makeLog()
        log.record(slot: 1, kind: .insert, initialRowID: 0, finalRowID: 3)
        XCTAssertTrue(log.events.isEmpty)
        XCTAssertEqual(log.slots[1].changedKinds, [.insert])
    }

    func testTheProbeIsTheFirstInsertionOrDeletionWithARowID() {
        var log = makeLog()
        log.record(slot: 0, kind: .update, initialRowID: 4, finalRowID: 4)
        XCTAssertNil(log.probe)
        // WITHOUT ROWID tables report rowid 0: no probe.
        log.record(slot: 1, kind: .insert, initialRowID: 0, finalRowID: 0)
        XCTAssertNil(log.probe)
        log.record(slot: 1, kind: .delete, initialRowID: 9, finalRowID: 0)
        log.record(slot: 0, kind: .insert, initialRowID: 0, finalRowID: 10)
        XCTAssertEqual(log.probe?.slot, 1)
        XCTAssertEqual(log.probe?.kind, .delete)
        XCTAssertEqual(log.probe?.rowID, 9)
    }

    func testDiscardedChangesAreGoneAndStorageServesAgain() {
        var log = makeLog()
        for rowID in 1...100 { log.record(slot: 0, kind: .insert, initialRowID: 0, finalRowID: Int64(rowID)) }
        log.discardChanges()
        XCTAssertTrue(log.events.isEmpty)
        XCTAssertNil(log.probe)
        XCTAssertEqual(log.slots[0].changedKinds, [])
        log.record(slot: 0, kind: .delete, initialRowID: 5, finalRowID: 0)
        XCTAssertEqual(describe(log), ["delete 0 5 origin 2"])
        XCTAssertEqual(log.event(at: 0).rowID, 5)
    }

    func testARestartKeepsTheReportedSlotsAndTheirPointers() {
        var log = makeLog()
        log.setPointers(ofSlot: 0, databaseName: main, tableName: player)
        log.appendSlot(RowChangeLog.Slot(hasUsers: false, hasRowWatchers: false, hasPreUpdateUsers: false))
        log.setPointers(ofSlot: 2, databaseName: main, tableName: team)
        log.record(slot: 2, kind: .insert, initialRowID: 0, finalRowID: 1)
        log.restart(keepingSlots: 2)
        XCTAssertEqual(log.slots.count, 2)
        XCTAssertEqual(log.knownSlotIndex(databaseName: main, tableName: player), 0)
        XCTAssertNil(log.knownSlotIndex(databaseName: main, tableName: team))
        XCTAssertEqual(log.slots[0].changedKinds, [])
    }

    func testWhichRowsNeedTheExecution() {
        var log = RowChangeLog()
        log.appendSlot(RowChangeLog.Slot(hasUsers: true, hasRowWatchers: true, hasPreUpdateUsers: false))
        log.appendSlot(RowChangeLog.Slot(hasUsers: true, hasRowWatchers: false, hasPreUpdateUsers: true))
        log.appendSlot(RowChangeLog.Slot(hasUsers: true, hasRowWatchers: false, hasPreUpdateUsers: false))
        // Region observers of rows: always.
        XCTAssertTrue(log.needsExecution(slot: 0, preUpdate: false))
        XCTAssertTrue(log.needsExecution(slot: 0, preUpdate: true))
        // Users of pre-update events: only the pre-update hook's rows.
        XCTAssertFalse(log.needsExecution(slot: 1, preUpdate: false))
        XCTAssertTrue(log.needsExecution(slot: 1, preUpdate: true))
        log.forgetPreUpdateUsers(ofSlot: 1)
        XCTAssertFalse(log.needsExecution(slot: 1, preUpdate: true))
        XCTAssertFalse(log.needsExecution(slot: 2, preUpdate: true))
    }
}
