import XCTest

@testable import Ripple

/// Which strategy an observation runs with: a queue's, a pool's (unless the observation
/// writes), and the throttle around either.
final class ValueObservationStrategyChoiceTests: XCTestCase {
    func testAQueueFetchesOnTheWriter() throws {
        let dbQueue = try DatabaseQueue()
        let strategy = valueObservationStrategy(for: dbQueue, requiresWriteAccess: false, throttleInterval: nil)
        XCTAssertTrue(strategy === ValueObservationQueueStrategy.reading)
    }

    func testAPoolFetchesOnReadersUnlessTheObservationWrites() throws {
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self))
        let reading = valueObservationStrategy(for: dbPool, requiresWriteAccess: false, throttleInterval: nil)
        XCTAssertTrue(reading === ValueObservationPoolStrategy.shared)
        let writing = valueObservationStrategy(for: dbPool, requiresWriteAccess: true, throttleInterval: nil)
        XCTAssertTrue(writing === ValueObservationQueueStrategy.writing)
        XCTAssertTrue(writing.fetchesInWriteTransaction)
    }

    func testThrottlingWrapsTheStrategy() throws {
        let dbQueue = try DatabaseQueue()
        let strategy = valueObservationStrategy(for: dbQueue, requiresWriteAccess: false, throttleInterval: 0.1)
        XCTAssertTrue(strategy is ValueObservationThrottle)
        XCTAssertFalse(strategy.fetchesInWriteTransaction, "as the strategy it wraps")
    }
}
