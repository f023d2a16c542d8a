import Foundation
import XCTest

@testable import Ripple

/// The logic of the loop that waits for file events and check timers, without threads.
final class WatchLoopStateTests: XCTestCase {
    typealias State = WatchLoopState<String>

    func ran(_ step: State.Step) -> [String]? {
        if case .run(let actions) = step { return actions }
        return nil
    }

    func waited(_ step: State.Step) -> (timeout: UInt64?, reader: Bool)? {
        if case .wait(let timeout, let reader) = step { return (timeout, reader) }
        return nil
    }

    func isExit(_ step: State.Step) -> Bool {
        if case .exit = step { return true }
        return false
    }

    func testTheFirstWorkStartsTheThreadWhichEndsWhenNothingIsLeft() {
        var state = State()
        XCTAssertFalse(state.isRunning)
        XCTAssertEqual(state.schedule(at: 100, "a").effect, .startThread)
        XCTAssertEqual(state.schedule(at: 50, "b").effect, .none, "the thread runs its steps: it sees the timer")
        XCTAssertEqual(waited(state.nextStep(now: 10))?.timeout, 40, "until the earliest deadline")
        XCTAssertEqual(waited(state.nextStep(now: 10))?.reader, false)
        XCTAssertEqual(ran(state.nextStep(now: 60)), ["b"])
        XCTAssertEqual(ran(state.nextStep(now: 100)), ["a"])
        XCTAssertTrue(isExit(state.nextStep(now: 100)))
        XCTAssertFalse(state.isRunning)
        XCTAssertEqual(state.schedule(at: 200, "c").effect, .startThread, "a new thread for new work")
    }

    func testTimersThatKeepFallingDueDoNotKeepTheDescriptorUnread() {
        var state = State()
        _ = state.setReader(true)
        var readsWithoutWaiting = 0
        for now in UInt64(1)...100 {
            // Each step finds a timer due (one that an action scheduled, say).
            _ = state.schedule(at: now, "t\(now)")
            let step = state.nextStep(now: now)
            if let wait = waited(step) {
                XCTAssertEqual(wait.timeout, 0, "a look at the descriptor, without waiting")
                XCTAssertTrue(wait.reader)
                state.waitDidEnd()
                readsWithoutWaiting += 1
            } else {
                XCTAssertNotNil(ran(step))
            }
        }
        XCTAssertGreaterThanOrEqual(readsWithoutWaiting, 100 / (State.runsBeforeReading + 1))
        // Without a reader, timers just run.
        var timersOnly = State()
        for now in UInt64(1)...20 {
            _ = timersOnly.schedule(at: now, "t")
            XCTAssertNotNil(ran(timersOnly.nextStep(now: now)))
        }
    }

    func testTimersRunInTheOrderOfTheirDeadlinesThenOfTheirScheduling() {
        var state = State()
        _ = state.schedule(at: 30, "x")
        _ = state.schedule(at: 10, "y")
        _ = state.schedule(at: 30, "z")
        _ = state.schedule(at: 20, "w")
        XCTAssertEqual(ran(state.nextStep(now: 30)), ["y", "w", "x", "z"])
        XCTAssertEqual(state.timerCount, 0)
    }

    func testATimerEarlierThanTheWaitWakesTheThreadOnce() {
        var state = State()
        _ = state.schedule(at: 100, "a")
        _ = state.nextStep(now: 0)  // waits until 100
        XCTAssertEqual(state.schedule(at: 150, "late").effect, .none, "later than the wait: seen when it ends")
        XCTAssertEqual(state.schedule(at: 50, "early").effect, .wake)
        XCTAssertEqual(state.schedule(at: 20, "earlier").effect, .none, "a wake-up is on its way already")
        XCTAssertEqual(waited(state.nextStep(now: 5))?.timeout, 15)
        XCTAssertEqual(state.schedule(at: 10, "sooner").effect, .wake, "a new wait, a new wake-up")
    }

    func testTheReaderKeepsTheThreadWaitingWithoutDeadline() {
        var state = State()
        XCTAssertEqual(state.setReader(true), .startThread)
        XCTAssertEqual(state.setReader(true), .none)
        let step = waited(state.nextStep(now: 0))
        XCTAssertNil(step?.timeout)
        XCTAssertEqual(step?.reader, true)
        XCTAssertEqual(state.schedule(at: 10, "a").effect, .wake, "any deadline comes before none")
        XCTAssertEqual(waited(state.nextStep(now: 0))?.timeout, 10)
        XCTAssertEqual(waited(state.nextStep(now: 0))?.reader, true, "the descriptor is read while a timer waits")
        XCTAssertEqual(state.setReader(false), .wake, "the waiting thread must stop reading")
        XCTAssertEqual(waited(state.nextStep(now: 0))?.reader, false)
        XCTAssertEqual(ran(state.nextStep(now: 10)), ["a"])
        XCTAssertTrue(isExit(state.nextStep(now: 10)))
    }

    func testAReaderAddedToAWaitForATimerWakesTheThread() {
        var state = State()
        _ = state.schedule(at: 1000, "a")
        _ = state.nextStep(now: 0)
        XCTAssertEqual(state.setReader(true), .wake, "else events would wait for the timer")
    }

    func testAReaderRemovedFromAnEndlessWaitWakesTheThreadToEnd() {
        var state = State()
        _ = state.setReader(true)
        _ = state.nextStep(now: 0)
        XCTAssertEqual(state.setReader(false), .wake)
        XCTAssertTrue(isExit(state.nextStep(now: 0)))
    }

    func testACancelledTimerDoesNotRun() {
        var state = State()
        let first = state.schedule(at: 10, "a").id
        _ = state.schedule(at: 20, "b")
        XCTAssertEqual(state.cancel(first), .none, "not waiting: the next step sees it")
        XCTAssertEqual(ran(state.nextStep(now: 30)), ["b"])
    }

    func testCancellingTheTimerTheThreadWaitsForWakesIt() {
        var state = State()
        let first = state.schedule(at: 100, "a").id
        let second = state.schedule(at: 200, "b").id
        XCTAssertEqual(waited(state.nextStep(now: 0))?.timeout, 100)
        XCTAssertEqual(state.cancel(second), .none, "the wait does not change")
        XCTAssertEqual(state.cancel(first), .wake, "else the thread would sleep until a deadline that is gone")
        XCTAssertTrue(isExit(state.nextStep(now: 0)), "and it ends: nothing is left")
    }

    func testWorkScheduledAfterTheWaitEndedNeedsNoWakeUp() {
        var state = State()
        _ = state.setReader(true)
        _ = state.nextStep(now: 0)
        state.waitDidEnd()  // the descriptor is readable: its handler plans a check
        XCTAssertEqual(state.schedule(at: 250, "check").effect, .none)
        XCTAssertEqual(waited(state.nextStep(now: 0))?.timeout, 250)
    }

    func testAThreadThatCouldNotStartIsStartedAgainForTheWorkThatWaits() {
        var state = State()
        XCTAssertEqual(state.schedule(at: 10, "a").effect, .startThread)
        state.threadDidNotStart()
        XCTAssertFalse(state.isRunning)
        XCTAssertEqual(state.startIfIdle(), .startThread)
        XCTAssertEqual(state.startIfIdle(), .none, "once")
        XCTAssertEqual(ran(state.nextStep(now: 10)), ["a"], "the timer was kept")
        var idle = State()
        XCTAssertEqual(idle.startIfIdle(), .none, "no work, no thread")
    }
}
