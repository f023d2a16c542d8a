import Dispatch
import Foundation
import XCTest

@testable import Ripple

/// As in GRDB: an observation of a view tracks the tables under it, not the view itself,
/// which SQLite never tells changes of; a request's own region still names the view.
final class ViewRegionTests: XCTestCase {
    func testAnObservationOfAViewTracksItsTablesOnly() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE t(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT);
                    CREATE VIEW v AS SELECT * FROM t
                    """)
        }
        let request = SQLRequest<Row>(sql: "SELECT name FROM v ORDER BY id")
        try dbQueue.read { db in
            XCTAssertEqual(try request.databaseRegion(db).description, "t(id,name),v(id,name)")
        }
        let tracked = LockedBox<[DatabaseRegion]>([])
        let values = LockedBox<[Int]>([])
        let cancellable =
            ValueObservation
            .tracking { try request.fetchAll($0).count }
            .handleEvents(willTrackRegion: { region in tracked.update { $0.append(region) } })
            .start(
                in: dbQueue, scheduling: .async(onQueue: DispatchQueue(label: "views")), onError: { XCTFail("\($0)") },
                onChange: { count in values.update { $0.append(count) } })
        try dbQueue.write { try $0.execute(sql: "INSERT INTO t (name) VALUES ('a')") }
        let deadline = Date().addingTimeInterval(5)
        while values.value.last != 1 && Date() < deadline { usleep(1000) }
        XCTAssertEqual(values.value.last, 1, "a change of the table under the view is seen")
        XCTAssertEqual(tracked.value.first?.description, "t(id,name)")
        withExtendedLifetime(cancellable) {}
    }
}
