import Foundation
import XCTest

@testable import Ripple

final class CancellableLifetimeTests: XCTestCase {
    func testACancelledCancellableLetsItsObservationGo() throws {
        // A handler that keeps its own cancellable makes no reference cycle once cancelled.
        final class Owner: @unchecked Sendable {  // written on the test's thread before any handler runs
            var cancellable: AnyDatabaseCancellable?
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        weak var weakOwner: Owner?
        do {
            let owner = Owner()
            weakOwner = owner
            owner.cancellable = DatabaseRegionObservation(tracking: Table<Row>("t"))
                .start(in: dbQueue, onError: { _ in }, onChange: { _ in _ = owner })
            owner.cancellable?.cancel()
        }
        // The removal of the observer from the connection is asynchronous: wait for it,
        // then for the release of the handler, out of the writer's access.
        try dbQueue.read { _ in }
        OutOfAccessRelease.waitForPendingReleases()
        XCTAssertNil(weakOwner)
    }
}
