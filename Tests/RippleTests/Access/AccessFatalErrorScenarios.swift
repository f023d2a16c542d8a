import Dispatch
import XCTest

@testable import Ripple

final class AccessFatalErrorScenarios: XCTestCase {
    func testReentrantQueueAccess() throws {
        guard isFatalScenario else { return }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { _ in
            try dbQueue.read { _ in }
        }
    }

    func testReentrantPoolWrite() throws {
        guard isFatalScenario else { return }
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self))
        try dbPool.write { _ in
            try dbPool.read { _ in
                try dbPool.write { _ in }
            }
        }
    }

    func testWriteThroughAnotherDatabase() throws {
        guard isFatalScenario else { return }
        let first = try DatabaseQueue()
        let second = try DatabaseQueue()
        try first.write { _ in
            try second.write { _ in
                try first.write { _ in }
            }
        }
    }
}
