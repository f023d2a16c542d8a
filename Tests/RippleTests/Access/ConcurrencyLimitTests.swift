import Dispatch
import Foundation
import XCTest
@testable import Ripple

final class ConcurrencyLimitTests: XCTestCase {
    func testJobsRunUpToTheLimitThenInOrder() {
        var state = ConcurrencyLimitState<Int>(limit: 2)
        XCTAssertEqual(state.submit(1), 1)
        XCTAssertEqual(state.submit(2), 2)
        XCTAssertNil(state.submit(3))
        XCTAssertNil(state.submit(4))
        XCTAssertEqual(state.running, 2)
        XCTAssertEqual(state.pendingCount, 2)
        // Each end starts the next one, in the order they came.
        XCTAssertEqual(state.jobDidEnd(), 3)
        XCTAssertEqual(state.running, 2)
        XCTAssertNil(state.submit(5))
        XCTAssertEqual(state.jobDidEnd(), 4)
        XCTAssertEqual(state.jobDidEnd(), 5)
        XCTAssertNil(state.jobDidEnd())
        XCTAssertEqual(state.running, 1)
        XCTAssertNil(state.jobDidEnd())
        XCTAssertEqual(state.running, 0)
        XCTAssertEqual(state.submit(6), 6)
    }

    private final class Counts: @unchecked Sendable {  // every field behind `lock`
        let lock = NSLock()
        var running = 0
        var maximum = 0
        var done = 0
    }

    func testTheLimiterNeverRunsMoreThanItsLimitAndRunsEveryJob() {
        let limiter = ConcurrencyLimiter(limit: 3)
        let counts = Counts()
        let allDone = DispatchSemaphore(value: 0)
        for _ in 0..<200 {
            limiter.run { didEnd in
                counts.lock.withLock {
                    counts.running += 1
                    counts.maximum = max(counts.maximum, counts.running)
                }
                DispatchQueue.global().async {
                    usleep(100)
                    let finished = counts.lock.withLock { () -> Bool in
                        counts.running -= 1
                        counts.done += 1
                        return counts.done == 200
                    }
                    didEnd()
                    if finished { allDone.signal() }
                }
            }
        }
        XCTAssertEqual(allDone.wait(timeout: .now() + 10), .success)
        counts.lock.withLock {
            XCTAssertEqual(counts.maximum, 3)
            XCTAssertEqual(counts.done, 200)
        }
    }
}
