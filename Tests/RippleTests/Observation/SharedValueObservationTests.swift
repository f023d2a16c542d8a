import Dispatch
import Foundation
import XCTest

@testable import Ripple

final class SharedValueObservationTests: XCTestCase {
    /// A serial queue: the tests wait on the main thread, which the default main-queue
    /// scheduler would need.
    private let queue = DispatchQueue(label: "SharedValueObservationTests")

    /// Whether the writer's broker has observers, once pending cancellations are done.
    private func eventuallyHasObservers(_ dbQueue: DatabaseQueue, _ expected: Bool) {
        let deadline = Date().addingTimeInterval(5)
        while dbQueue.writeWithoutTransaction({ $0.observationBroker.hasObservers }) != expected, Date() < deadline { usleep(1000) }
        XCTAssertEqual(dbQueue.writeWithoutTransaction { $0.observationBroker.hasObservers }, expected)
    }

    private func waitForErrors(_ collector: ValueCollector<Int>, count: Int) {
        let deadline = Date().addingTimeInterval(5)
        while collector.errors.count < count, Date() < deadline { usleep(1000) }
        XCTAssertEqual(collector.errors.count, count)
    }

    func testSharedObservationFetchesOnceForAllSubscribers() throws {
        let dbQueue = try makePlayerDatabase()
        let fetches = ChangeCounter()
        let shared = ValueObservation.tracking { db -> Int in
            fetches.increment()
            return try playerCount(db)
        }.shared(in: dbQueue, scheduling: .async(onQueue: queue))
        let first = ValueCollector<Int>()
        let second = ValueCollector<Int>()
        let c1 = shared.start(onError: { _ in }, onChange: { first.append($0) })
        first.wait { $0 == [0] }
        let c2 = shared.start(onError: { _ in }, onChange: { second.append($0) })
        second.wait { $0 == [0] }  // the last value, at once
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
        first.wait { $0 == [0, 1] }
        second.wait { $0 == [0, 1] }
        XCTAssertEqual(fetches.count, 2, "one fetch per change, whatever the number of subscribers")
        c1.cancel()
        c2.cancel()
        // The last subscriber gone, the database observation stops (`.whileObserved`).
        eventuallyHasObservers(dbQueue, false)
    }

    func testSharedValuesAsyncSequence() async throws {
        let dbQueue = try makePlayerDatabase()
        let shared = ValueObservation.tracking(playerCount).shared(in: dbQueue, scheduling: .async(onQueue: queue))
        var iterator = shared.values().makeAsyncIterator()
        let first = try await iterator.next()
        XCTAssertEqual(first, 0)
    }

    /// `.whileObserved`: an error goes to every subscriber and stops the observation; the
    /// next subscriber starts a new one, and recovers.
    func testWhileObservedRecoversFromAnErrorOnResubscription() throws {
        let dbQueue = try makePlayerDatabase()
        let fails = LockedBox(false)
        let shared = ValueObservation.tracking { db -> Int in
            if fails.value { throw DatabaseError(message: "failed on purpose") }
            return try playerCount(db)
        }.shared(in: dbQueue, scheduling: .async(onQueue: queue), extent: .whileObserved)
        let first = ValueCollector<Int>()
        let second = ValueCollector<Int>()
        let c1 = shared.start(onError: { first.append(error: $0) }, onChange: { first.append($0) })
        first.wait { $0 == [0] }
        let c2 = shared.start(onError: { second.append(error: $0) }, onChange: { second.append($0) })
        second.wait { $0 == [0] }
        fails.update { $0 = true }
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
        waitForErrors(first, count: 1)
        waitForErrors(second, count: 1)
        eventuallyHasObservers(dbQueue, false)

        fails.update { $0 = false }
        let third = ValueCollector<Int>()
        let c3 = shared.start(onError: { third.append(error: $0) }, onChange: { third.append($0) })
        third.wait { $0 == [1] }  // a new fetch, not the error
        XCTAssertTrue(third.errors.isEmpty)
        XCTAssertEqual(first.values, [0], "an errored subscriber hears nothing more")
        withExtendedLifetime((c1, c2, c3)) {}
    }

    /// `.observationLifetime`: observing goes on with no subscriber, and an error is the
    /// last result for good.
    func testObservationLifetimeKeepsObservingAndKeepsTheError() throws {
        let dbQueue = try makePlayerDatabase()
        let fails = LockedBox(false)
        let fetches = ChangeCounter()
        let shared = ValueObservation.tracking { db -> Int in
            fetches.increment()
            if fails.value { throw DatabaseError(message: "failed on purpose") }
            return try playerCount(db)
        }.shared(in: dbQueue, scheduling: .async(onQueue: queue), extent: .observationLifetime)
        let first = ValueCollector<Int>()
        shared.start(onError: { first.append(error: $0) }, onChange: { first.append($0) }).cancel()
        eventuallyHasObservers(dbQueue, true)
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
        let deadline = Date().addingTimeInterval(5)
        while fetches.count < 2, Date() < deadline { usleep(1000) }
        XCTAssertEqual(fetches.count, 2, "still observing without subscribers")

        // The value of the second fetch reaches the shared observation through its
        // scheduler: wait for it before subscribing, so that it is the last value.
        let probe = ValueCollector<Int>()
        let probeCancellable = shared.start(onError: { probe.append(error: $0) }, onChange: { probe.append($0) })
        probe.wait { $0.last == 1 }
        probeCancellable.cancel()
        let second = ValueCollector<Int>()
        let c2 = shared.start(onError: { second.append(error: $0) }, onChange: { second.append($0) })
        second.wait { $0 == [1] }  // the last value, without a fetch
        XCTAssertEqual(fetches.count, 2)

        fails.update { $0 = true }
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('B')") }
        waitForErrors(second, count: 1)
        let third = ValueCollector<Int>()
        let c3 = shared.start(onError: { third.append(error: $0) }, onChange: { third.append($0) })
        waitForErrors(third, count: 1)  // the error, for good
        XCTAssertEqual(fetches.count, 3)
        withExtendedLifetime((c2, c3)) {}
    }

    /// With `.immediate`, each subscriber gets a value during its `start`, the second one
    /// from the first's value handler too.
    func testImmediateDeliversDuringStartEvenFromAHandler() throws {
        let dbQueue = try makePlayerDatabase()
        let shared = ValueObservation.tracking(playerCount).shared(in: dbQueue, scheduling: .immediate)
        let first = ValueCollector<Int>()
        let nested = ValueCollector<Int>()
        let nestedCancellable = LockedBox<AnyDatabaseCancellable?>(nil)
        let c1 = shared.start(
            onError: { XCTFail("\($0)") },
            onChange: { value in
                first.append(value)
                if nestedCancellable.value == nil {
                    let cancellable = shared.start(onError: { XCTFail("\($0)") }, onChange: { nested.append($0) })
                    nestedCancellable.update { $0 = cancellable }
                }
            })
        XCTAssertEqual(first.values, [0], "delivered during start")
        XCTAssertEqual(nested.values, [0], "delivered during the nested start")
        let later = ValueCollector<Int>()
        let c2 = shared.start(onError: { XCTFail("\($0)") }, onChange: { later.append($0) })
        XCTAssertEqual(later.values, [0], "the last value, during start")
        XCTAssertEqual(first.values, [0], "one database observation")
        withExtendedLifetime((c1, c2)) {}
        nestedCancellable.value?.cancel()
    }

    /// The shared observation lives while a subscription does.
    func testSubscriptionKeepsTheSharedObservation() throws {
        let dbQueue = try makePlayerDatabase()
        let values = ValueCollector<Int>()
        let cancellable = ValueObservation.tracking(playerCount)
            .shared(in: dbQueue, scheduling: .async(onQueue: queue))
            .start(onError: { XCTFail("\($0)") }, onChange: { values.append($0) })
        values.wait { $0 == [0] }
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
        values.wait { $0 == [0, 1] }
        cancellable.cancel()
    }
}
