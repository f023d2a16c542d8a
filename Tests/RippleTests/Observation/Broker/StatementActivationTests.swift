import XCTest

@testable import Ripple

/// What observers are asked before a statement, with plain values.
final class StatementActivationTests: XCTestCase {
    private func writes(_ name: String, inserts: Bool = false, deletes: Bool = false, updates: Set<String>? = nil) -> StatementReport.TableWrites {
        var write = StatementReport.TableWrites(name: name)
        write.inserts = inserts
        write.deletes = deletes
        write.updatedColumns = updates
        return write
    }

    func testQuestionsComeInsertsDeletesThenUpdatesPerTable() {
        let activation = StatementActivation(
            writes: [writes("Player", inserts: true, updates: ["score"]), writes("team", deletes: true)],
            mayReplace: { _ in false })
        XCTAssertEqual(
            activation.eventKinds,
            [
                .insert(tableName: "Player"),
                .update(tableName: "Player", columnNames: ["score"]),
                .delete(tableName: "team"),
            ])
        XCTAssertEqual(activation.questions.map(\.tableKey), ["player", "player", "team"])
    }

    func testAStatementThatMayReplaceIsAlsoAskedAboutAsADeletion() {
        let activation = StatementActivation(writes: [writes("player", inserts: true)], mayReplace: { $0 == "player" })
        XCTAssertEqual(activation.eventKinds, [.insert(tableName: "player"), .delete(tableName: "player")])
    }

    func testInternalTablesAreNotAsked() {
        let activation = StatementActivation(writes: [writes("sqlite_sequence", updates: ["seq"])], mayReplace: { _ in false })
        XCTAssertTrue(activation.questions.isEmpty)
    }

    func testAcceptanceHoldsWhatTheObserverAnsweredYesTo() {
        let activation = StatementActivation(
            writes: [writes("player", inserts: true, deletes: true)], mayReplace: { _ in false })
        let acceptance = activation.acceptance { kind in
            if case .delete = kind { return true }
            return false
        }
        XCTAssertEqual(acceptance.kinds(forTableKey: "player"), .delete)
        XCTAssertEqual(acceptance.kinds(forTableKey: "team"), [])
        XCTAssertEqual(activation.acceptance(mask: 0b10), acceptance, "the mask of answers stands for the same acceptance")
        XCTAssertTrue(activation.acceptance(mask: 0).isEmpty)
    }

    func testUpdatesTouchAWatcherOfAnUpdatedColumnOnly() {
        XCTAssertTrue(StatementActivation.touches(.update, updatedColumns: ["Score"], watchedColumns: ["score"]))
        XCTAssertFalse(StatementActivation.touches(.update, updatedColumns: ["name"], watchedColumns: ["score"]))
        XCTAssertTrue(StatementActivation.touches(.update, updatedColumns: nil, watchedColumns: ["score"]), "unknown columns: any")
        XCTAssertTrue(StatementActivation.touches(.insert, updatedColumns: nil, watchedColumns: []), "inserts touch any watcher")
        XCTAssertFalse(StatementActivation.touches([], updatedColumns: ["score"], watchedColumns: nil))
    }

    func testARegionIsTouchedByAWriteOfWhatItWatches() {
        var region = DatabaseRegion()
        region.formUnion(DatabaseRegion(table: "player", columns: ["score"]))
        XCTAssertTrue(StatementActivation.mayTouch(region, writes: [writes("player", updates: ["score"])]))
        XCTAssertFalse(StatementActivation.mayTouch(region, writes: [writes("player", updates: ["name"])]))
        XCTAssertTrue(StatementActivation.mayTouch(region, writes: [writes("player", deletes: true)]))
        XCTAssertFalse(StatementActivation.mayTouch(region, writes: [writes("team", inserts: true)]))
    }
}
