import XCTest

@testable import Ripple

/// The fetch phase of a value observation's state: one fetch at a time, one more for the
/// changes that came while it ran, deliveries enqueued as the fetch ends; tested with
/// plain values, without threads or SQLite.
final class ValueObservationFetchPhaseTests: XCTestCase {
    private func makeState() -> ValueObservationSharedState {
        ValueObservationSharedState(events: [])
    }

    func testAChangeStartsAFetchWhenNoneRuns() {
        var state = makeState()
        XCTAssertEqual(state.fetchPhase, .idle)
        XCTAssertTrue(state.askForFetch(), "the first change starts a fetch")
        XCTAssertEqual(state.fetchPhase, .fetching)
    }

    func testChangesDuringAFetchAskForOneMoreFetch() {
        var state = makeState()
        XCTAssertTrue(state.askForFetch())
        XCTAssertFalse(state.askForFetch(), "a fetch runs")
        XCTAssertFalse(state.askForFetch(), "a fetch runs, and one more is asked for already")
        XCTAssertEqual(state.fetchPhase, .fetchingThenAgain)

        let end = state.fetchEnded(delivering: nil)
        XCTAssertEqual(end, .init(schedulesDelivery: false, fetchesAgain: true), "one more fetch, for all the changes")
        XCTAssertEqual(state.fetchPhase, .fetching)

        let last = state.fetchEnded(delivering: nil)
        XCTAssertEqual(last, .init(schedulesDelivery: false, fetchesAgain: false))
        XCTAssertEqual(state.fetchPhase, .idle)
    }

    func testAFetchOnTheWriterCoversTheChangesThatCameBeforeIt() {
        var state = makeState()
        XCTAssertTrue(state.askForFetch())
        XCTAssertFalse(state.askForFetch())
        state.fetchSeesEveryCommit()
        XCTAssertEqual(state.fetchEnded(delivering: nil).fetchesAgain, false)
        XCTAssertEqual(state.fetchPhase, .idle)
    }

    func testTheFirstDeliveryIsScheduledAndTheNextOnesJoinIt() {
        var state = makeState()
        state.startFirstFetch()
        XCTAssertTrue(state.fetchEnded(delivering: {}).schedulesDelivery, "no delivery is scheduled yet")
        XCTAssertTrue(state.askForFetch())
        XCTAssertFalse(state.fetchEnded(delivering: {}).schedulesDelivery, "the scheduled delivery takes it")
        XCTAssertEqual(state.deliveries.count, 2)
    }

    func testACancelledObservationEnqueuesNothingAndDoesNotFetchAgain() {
        var state = makeState()
        XCTAssertTrue(state.askForFetch())
        XCTAssertFalse(state.askForFetch())
        XCTAssertTrue(state.cancel())
        let end = state.fetchEnded(delivering: {})
        XCTAssertEqual(end, .init(schedulesDelivery: false, fetchesAgain: false))
        XCTAssertEqual(state.deliveries.count, 0)
        XCTAssertEqual(state.fetchPhase, .idle)
    }

    func testAFetchThatDoesNotRunLeavesTheObservationIdle() {
        var state = makeState()
        XCTAssertTrue(state.askForFetch())
        state.fetchDidNotRun()
        XCTAssertEqual(state.fetchPhase, .idle)
        XCTAssertTrue(state.askForFetch(), "the next change starts a fetch")
    }

    func testEachFetchRequestHasItsGenerationAndTheObservedRegion() {
        var state = makeState()
        state.observedRegion = DatabaseRegion(table: "player")
        let first = state.nextFetch()
        let second = state.nextFetch()
        XCTAssertNotEqual(first.generation, second.generation)
        XCTAssertEqual(second.observedRegion, DatabaseRegion(table: "player"))
    }
}
