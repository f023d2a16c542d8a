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
            limiter.run {
                counts.lock.withLock {
                    counts.running += 1
                    counts.maximum = max(counts.maximum, counts.running)
                }
                usleep(100)
                let finished = counts.lock.withLock { () -> Bool in
                    counts.running -= 1
                    counts.done += 1
                    return counts.done == 200
                }
                if finished { allDone.signal() }
            }
        }
        XCTAssertEqual(allDone.wait(timeout: .now() + 10), .success)
        counts.lock.withLock {
            // (How many run at once also depends on the threads dispatch gives: up to the
            // limit is what the state machine's test shows.)
            XCTAssertLessThanOrEqual(counts.maximum, 3)
            XCTAssertEqual(counts.done, 200)
        }
    }

    func testAThreadThatRanAJobRunsTheJobsThatWait() {
        let limiter = ConcurrencyLimiter(limit: 1)
        let threads = LockedState<[UInt]>([])
        let firstRuns = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let allDone = DispatchSemaphore(value: 0)
        limiter.run {
            threads.withLock { $0.append(UInt(pthread_self())) }
            firstRuns.signal()
            release.wait()
        }
        firstRuns.wait()
        for index in 1...20 {
            limiter.run {
                threads.withLock { $0.append(UInt(pthread_self())) }
                if index == 20 { allDone.signal() }
            }
        }
        release.signal()
        XCTAssertEqual(allDone.wait(timeout: .now() + 10), .success)
        let all = threads.withLock { $0 }
        XCTAssertEqual(all.count, 21)
        XCTAssertEqual(Set(all).count, 1, "the jobs that waited ran on the thread of the first one")
    }
}
