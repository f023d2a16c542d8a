import Foundation
import XCTest

@testable import Ripple

#if os(Linux) || os(Android)
/// The loop with its thread.
final class WatchLoopTests: XCTestCase {
    func testTimersRunOnTheLoopsThreadWhichEndsWhenNoneIsLeft() throws {
        let loop = WatchLoop()
        XCTAssertFalse(loop.isRunning, "no thread before any work")
        let order = LockedState<[String]>([])
        let threads = LockedState<Set<UInt>>([])
        let done = expectation(description: "timers ran")
        done.expectedFulfillmentCount = 3
        for (name, milliseconds) in [("b", 20), ("a", 5), ("c", 40)] {
            loop.schedule(after: UInt64(milliseconds) * 1_000_000) {
                order.withLock { $0.append(name) }
                threads.withLock { _ = $0.insert(UInt(pthread_self())) }
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(order.withLock { $0 }, ["a", "b", "c"])
        XCTAssertEqual(threads.withLock { $0.count }, 1, "one thread")
        XCTAssertFalse(threads.withLock { $0.contains(UInt(pthread_self())) }, "not the caller's")
        try waitUntil("the thread ends") { !loop.isRunning }
    }

    func testATimerScheduledFromAnotherThreadWakesAWaitingLoop() throws {
        let loop = WatchLoop()
        let late = expectation(description: "late timer")
        let lateTimer = loop.schedule(after: 60_000_000_000) { late.fulfill() }
        let soon = expectation(description: "soon timer")
        Thread.sleep(forTimeInterval: 0.05)  // (the loop waits for the late timer by now, or soon will)
        loop.schedule(after: 1_000_000) { soon.fulfill() }
        wait(for: [soon], timeout: 10)
        loop.cancel(lateTimer)
        late.isInverted = true
        wait(for: [late], timeout: 0.05)
        try waitUntil("the thread ends once the timer it waited for is cancelled", timeout: 5) { !loop.isRunning }
    }

    func testTheReaderIsCalledWhenItsDescriptorIsReadableAndTheThreadEndsWithoutIt() throws {
        let loop = WatchLoop()
        var descriptors: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&descriptors), 0)
        defer {
            close(descriptors[0])
            close(descriptors[1])
        }
        let readBytes = LockedState<[UInt8]>([])
        let readDescriptor = descriptors[0]
        XCTAssertTrue(
            loop.setReader(
                (
                    readDescriptor,
                    {
                        var byte: UInt8 = 0
                        if read(readDescriptor, &byte, 1) == 1 { readBytes.withLock { $0.append(byte) } }
                    }
                )))
        XCTAssertTrue(loop.isRunning)
        for value: UInt8 in [7, 8] {
            var byte = value
            XCTAssertEqual(write(descriptors[1], &byte, 1), 1)
            try waitUntil("the byte is read") { readBytes.withLock { $0.last } == value }
        }
        XCTAssertTrue(loop.isRunning, "a reader keeps the thread")
        XCTAssertTrue(loop.setReader(nil))
        try waitUntil("the thread ends") { !loop.isRunning }
    }
}
#endif
