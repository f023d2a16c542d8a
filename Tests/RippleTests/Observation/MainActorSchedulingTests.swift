import Foundation
import XCTest

@testable import Ripple

/// `.immediate` and `.mainActor` scheduling: values on the main actor, for main-actor
/// isolated handlers, and a clear error where `.immediate` can not be honoured.
///
/// (The test methods are not `@MainActor`: XCTest on Linux can not run such methods. They
/// run on the main thread, and enter the main actor with `MainActor.assumeIsolated`.)
final class MainActorSchedulingTests: XCTestCase {
    /// A main-actor model, as an app's `@Observable` one: its handlers mutate its state.
    @MainActor
    final class PlayerCountModel {
        var counts: [Int] = []
        var errors: [any Error] = []
        var cancellable: AnyDatabaseCancellable?

        func observe(_ dbQueue: DatabaseQueue, scheduling: some ValueObservationMainActorScheduler) {
            cancellable =
                ValueObservation
                .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
                .start(in: dbQueue, scheduling: scheduling) { [weak self] error in
                    MainActor.preconditionIsolated()
                    self?.errors.append(error)
                } onChange: { [weak self] count in
                    MainActor.preconditionIsolated()
                    self?.counts.append(count)
                }
        }

        func observeWithDefaultScheduling(_ dbQueue: DatabaseQueue) {
            cancellable =
                ValueObservation
                .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
                .start(in: dbQueue) { [weak self] error in
                    self?.errors.append(error)
                } onChange: { [weak self] count in
                    self?.counts.append(count)
                }
        }
    }

    private static func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)") }
        return dbQueue
    }

    /// Runs the main run loop until `condition` holds (values come on the main queue).
    @MainActor
    private static func waitOnMainActor(_ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(10)
        while !condition() && Date() < deadline {
            RunLoop.main.run(until: Date().addingTimeInterval(0.01))
        }
    }

    func testImmediateDeliversTheFirstValueDuringStartThenOnTheMainActor() throws {
        try MainActor.assumeIsolated {
            let dbQueue = try Self.makeDatabase()
            let model = PlayerCountModel()
            model.observe(dbQueue, scheduling: .immediate)
            XCTAssertEqual(model.counts, [0], "synchronous")
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
            XCTAssertEqual(model.counts, [0], "later values: asynchronously")
            Self.waitOnMainActor { model.counts.count == 2 }
            XCTAssertEqual(model.counts, [0, 1])
            XCTAssertTrue(model.errors.isEmpty)
        }
    }

    func testMainActorDeliversEveryValueAsynchronously() throws {
        try MainActor.assumeIsolated {
            let dbQueue = try Self.makeDatabase()
            let model = PlayerCountModel()
            model.observe(dbQueue, scheduling: .mainActor)
            XCTAssertEqual(model.counts, [], "asynchronous")
            Self.waitOnMainActor { model.counts.count == 1 }
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
            Self.waitOnMainActor { model.counts.count == 2 }
            XCTAssertEqual(model.counts, [0, 1])
        }
    }

    func testMainActorCodeWithoutSchedulingGetsValuesOnTheMainActor() throws {
        try MainActor.assumeIsolated {
            let dbQueue = try Self.makeDatabase()
            let model = PlayerCountModel()
            model.observeWithDefaultScheduling(dbQueue)
            Self.waitOnMainActor { model.counts.count == 1 }
            XCTAssertEqual(model.counts, [0])
        }
    }

    func testImmediateOffTheMainActorIsAnErrorNotATrap() throws {
        let dbQueue = try Self.makeDatabase()
        let errors = LockedErrors()
        let started = expectation(description: "started")
        // Nonisolated code reaches `.immediate` through generic code (main-actor code picks
        // the main-actor `start`, and nonisolated code can not call it).
        @Sendable func start(scheduling scheduler: some ValueObservationScheduler) -> AnyDatabaseCancellable {
            ValueObservation
                .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
                .start(
                    in: dbQueue, scheduling: scheduler, onError: { errors.append($0) },
                    onChange: { _ in
                        XCTFail("no value off the main actor")
                    })
        }
        DispatchQueue.global().async {
            let cancellable = start(scheduling: ImmediateValueObservationScheduler())
            withExtendedLifetime(cancellable) {}
            started.fulfill()
        }
        wait(for: [started], timeout: 10)
        let error = try XCTUnwrap(errors.all.first as? DatabaseError)
        XCTAssertEqual(error.resultCode, .SQLITE_MISUSE)
        XCTAssertTrue(error.message?.contains("must be started on the main actor") == true, error.message ?? "")
        XCTAssertEqual(errors.all.count, 1)
    }

    func testTheMainQueueIsTheMainActorWhicheverThreadServesIt() {
        XCTAssertTrue(MainActorCheck.isOnMainActor)
        let checked = expectation(description: "checked")
        DispatchQueue.main.async {
            XCTAssertTrue(MainActorCheck.isOnMainActor)
            checked.fulfill()
        }
        wait(for: [checked], timeout: 10)
        let offMain = expectation(description: "off main")
        DispatchQueue.global().async {
            XCTAssertFalse(MainActorCheck.isOnMainActor)
            offMain.fulfill()
        }
        wait(for: [offMain], timeout: 10)
    }
}

/// Errors appended from any thread.
final class LockedErrors: @unchecked Sendable {  // `errors` is only read and written under `lock`
    private let lock = NSLock()
    private var errors: [any Error] = []
    func append(_ error: any Error) { lock.withLock { errors.append(error) } }
    var all: [any Error] { lock.withLock { errors } }
}
