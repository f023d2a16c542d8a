import CSQLite
import Foundation
import XCTest

@testable import Ripple

/// Ripple turns SQLite's process-wide memory statistics off before its first connection,
/// unless the application keeps them. Checked in a process of its own (the external
/// writer helper), where the first connection is Ripple's: in the test process, another
/// test may have initialized SQLite first.
final class SQLiteMemoryStatisticsTests: XCTestCase {
    func testRippleTurnsMemoryStatisticsOffBeforeItsFirstConnection() throws {
        let path = try makeTemporaryDatabasePath(self)
        let process = try ExternalChangeTests.ExternalWriter("ripple", path: path)
        // (Its connection is open, and allocated memory.)
        XCTAssertEqual(try process.ask("memory"), "0", "no statistics kept")
        process.quit()
    }

    func testAnApplicationMayKeepMemoryStatistics() throws {
        let path = try makeTemporaryDatabasePath(self)
        let process = try ExternalChangeTests.ExternalWriter(
            "ripple", path: path, environment: ["RIPPLE_KEEP_MEMORY_STATISTICS": "1"])
        let used = try XCTUnwrap(Int64(process.ask("memory")))
        XCTAssertGreaterThan(used, 0, "the connection's memory is counted")
        process.quit()
    }

    func testKeepingIsTooLateOnceRippleTurnedThemOff() throws {
        // A connection opened: the choice is made, in this process, one way or the other.
        _ = try DatabaseQueue()
        switch SQLiteMemoryStatistics.choice.withLock({ $0 }) {
        case .pending:
            XCTFail("opening a connection makes the choice")
        case .made(let turnedOff):
            XCTAssertEqual(Database.keepSQLiteMemoryStatistics(), !turnedOff)
        }
    }
}
