import Foundation
import XCTest

@testable import Ripple

/// Region observations of requests restricted to some rowids (`OR`-ed equalities), or to
/// none (a filter no row passes): notified by each commit that writes one of their rows
/// (checked against the tables' content: no change is missed), and by no other.
final class RowIDRegionObservationTests: XCTestCase {
    func testRowIDRestrictedObservationsAreToldExactlyTheCommitsThatChangeTheirRows() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            for id in 1...5 { try db.execute(sql: "INSERT INTO player (id, name) VALUES (?, ?)", arguments: [id, "p\(id)"]) }
        }
        let requests: [(String, QueryInterfaceRequest<Player>, Set<Int>)] = [
            ("1 or 2", Player.filter(Column("id") == 1 || Column("id") == 2), [1, 2]),
            ("in or equal", Player.filter([1, 2].contains(Column("id")) || Column.rowID == 4), [1, 2, 4]),
            ("none", Player.filter([Int]().contains(Column("id"))), []),
            ("null id", Player.filter(Column("id") == nil), []),
        ]
        var counters: [LockedCounter] = []
        var cancellables: [AnyDatabaseCancellable] = []
        for (_, request, _) in requests {
            let counter = LockedCounter()
            counters.append(counter)
            cancellables.append(
                DatabaseRegionObservation(tracking: request).start(in: dbQueue, onError: { XCTFail("\($0)") }) { _ in counter.increment() })
        }
        func contents() throws -> [[Row]] {
            try dbQueue.read { db in try requests.map { try Row.fetchAll(db, $0.1.orderByPrimaryKey()) } }
        }
        var rng = SplitMix(seed: 7)
        for step in 0..<60 {
            let before = try contents()
            let counts = counters.map(\.value)
            let id = Int(rng.next() % 6) + 1
            let wroteRow = try dbQueue.write { db in
                switch rng.next() % 3 {
                case 0: try db.execute(sql: "UPDATE player SET score = score + 1 WHERE id = ?", arguments: [id])
                case 1: try db.execute(sql: "DELETE FROM player WHERE id = ?", arguments: [id])
                default: try db.execute(sql: "INSERT OR REPLACE INTO player (id, name) VALUES (?, 'new')", arguments: [id])
                }
                return db.changesCount > 0
            }
            let after = try contents()
            for (index, (name, _, ids)) in requests.enumerated() {
                let told = counters[index].value > counts[index]
                // Told of the commits that write its rows (a REPLACE that keeps the
                // content rewrites the row), and so of every change of its content.
                XCTAssertEqual(told, wroteRow && ids.contains(id), "step \(step), \(name), row \(id)")
                if before[index] != after[index] { XCTAssertTrue(told, "step \(step), \(name): a change missed") }
            }
        }
        withExtendedLifetime(cancellables) {}
    }
}
