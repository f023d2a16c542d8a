import Foundation
import XCTest

@testable import Ripple

final class MigratorFatalErrorScenarios: XCTestCase {
    func testMigrateBackwards() throws {
        guard isFatalScenario else { return }
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { _ in }
        migrator.registerMigration("v2") { _ in }
        try migrator.migrate(dbQueue)
        try migrator.migrate(dbQueue, upTo: "v1")
    }

    func testRegisterTwice() throws {
        guard isFatalScenario else { return }
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { _ in }
        migrator.registerMigration("v1") { _ in }
    }
}
