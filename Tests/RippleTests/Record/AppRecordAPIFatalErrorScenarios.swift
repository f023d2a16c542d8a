import Foundation
import XCTest

@testable import Ripple

final class AppRecordAPIFatalErrorScenarios: XCTestCase {
    func testReverseSQLOrdering() throws {
        guard isFatalScenario else { return }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a)")
            _ = try Table<Row>("t").order(sql: "a").reversed().fetchAll(db)
        }
    }
}
