import XCTest

@testable import Ripple

/// The events of a value observation's state and the actions they return (a commit, a
/// cancel, the end of a use, the end of a fetch), tested with plain values, without
/// threads or SQLite.
final class ValueObservationStateEventsTests: XCTestCase {
    private struct Failure: Error {}

    func testACommitStartsAFetchOfTheObservedRegionWhenNoneRuns() {
        var state = ValueObservationSharedState(events: [])
        state.observedRegion = DatabaseRegion(table: "player")
        let action = state.regionWasCommitted()
        XCTAssertEqual(action?.notifiesChange, false, "no handlers to tell")
        XCTAssertEqual(action?.fetch?.observedRegion, DatabaseRegion(table: "player"))
        XCTAssertEqual(action?.fetch?.generation, state.generation, "the last fetch asked for")
        XCTAssertEqual(state.fetchPhase, .fetching)
    }

    func testACommitDuringAFetchAsksForOneMoreAfterIt() {
        var state = ValueObservationSharedState(events: [ValueObservationEvents(databaseDidChange: {})])
        XCTAssertNotNil(state.regionWasCommitted()?.fetch)
        let action = state.regionWasCommitted()
        XCTAssertEqual(action, .init(notifiesChange: true, fetch: nil), "the handlers hear of it; the fetch under way is followed by one more")
        XCTAssertEqual(state.fetchPhase, .fetchingThenAgain)
        XCTAssertEqual(state.fetchEnded(with: nil).fetchesAgain, true)
    }

    func testACancelledObservationIgnoresCommits() {
        var state = ValueObservationSharedState(events: [])
        XCTAssertNotNil(state.cancelled())
        XCTAssertNil(state.regionWasCommitted())
        XCTAssertEqual(state.fetchPhase, .idle)
    }

    func testAChangeAsksForAFetchOnlyWhenNoneRuns() {
        var state = ValueObservationSharedState(events: [])
        let first = state.changeAsksForFetch()
        XCTAssertNotNil(first)
        XCTAssertNil(state.changeAsksForFetch(), "a fetch runs")
        XCTAssertEqual(state.fetchEnded(with: nil), .init(schedulesDelivery: false, fetchesAgain: true))
        XCTAssertNotEqual(state.nextFetch().generation, first?.generation, "the fetch that follows is a new request")
    }

    func testACancelWithoutWorkTellsTheHandlersAndLetsEverythingGo() {
        var state = ValueObservationSharedState(events: [ValueObservationEvents(didCancel: {})], onError: { _ in })
        let action = state.cancelled()
        XCTAssertEqual(action?.events.count, 1, "the handlers to tell")
        XCTAssertEqual(action?.released?.events.count, 1)
        XCTAssertNotNil(action?.released?.onError)
        XCTAssertNil(state.onError)
        XCTAssertNil(state.cancelled(), "cancelled already")
    }

    func testACancelDuringWorkLetsGoOnceWhenTheLastUseEnds() {
        var state = ValueObservationSharedState(events: [ValueObservationEvents(didCancel: {})], onError: { _ in })
        XCTAssertTrue(state.beginUse())
        XCTAssertTrue(state.beginUse())
        let action = state.cancelled()
        XCTAssertEqual(action?.events.count, 1)
        XCTAssertNil(action?.released, "work under way holds the closures")
        XCTAssertFalse(state.beginUse(unlessCancelled: true))
        XCTAssertNil(state.useEnded(), "one more use")
        let released = state.useEnded()
        XCTAssertEqual(released?.events.count, 1, "the last use ended")
        XCTAssertNotNil(released?.onError)
        XCTAssertNil(state.letGo(), "let go once only")
    }

    func testUsesWithoutACancelLetNothingGo() {
        var state = ValueObservationSharedState(events: [], onError: { _ in })
        XCTAssertTrue(state.beginUse(unlessCancelled: true))
        XCTAssertNil(state.useEnded())
        XCTAssertNotNil(state.onError)
    }

    func testTheDeliveryOfAnErrorCallsTheErrorHandlerUntilItIsLetGo() {
        let calls = LockedState(0)
        var state = ValueObservationSharedState(events: [], onError: { _ in calls.withLock { $0 += 1 } })
        state.delivery(of: .failure(Failure()))()
        XCTAssertEqual(calls.withLock { $0 }, 1)
        XCTAssertNotNil(state.cancelled()?.released)
        state.delivery(of: .failure(Failure()))()
        XCTAssertEqual(calls.withLock { $0 }, 1, "no handler once let go")
    }

    func testAFetchThatEndsWithAnOutcomeEnqueuesItsDelivery() {
        var state = ValueObservationSharedState(events: [])
        XCTAssertTrue(state.askForFetch())
        XCTAssertEqual(state.fetchEnded(with: .value({})), .init(schedulesDelivery: true, fetchesAgain: false))
        XCTAssertEqual(
            state.fetchEnded(with: .failure(Failure())), .init(schedulesDelivery: false, fetchesAgain: false), "the scheduled delivery takes it")
        XCTAssertEqual(state.deliveries.count, 2)
        XCTAssertEqual(state.fetchEnded(with: nil).schedulesDelivery, false, "nothing to deliver")
        XCTAssertEqual(state.deliveries.count, 2)
    }

    func testOnlyTheFirstRegionIsToldWhateverItIs() {
        var state = ValueObservationSharedState(events: [])
        XCTAssertTrue(state.tracksFirstRegion())
        XCTAssertFalse(state.tracksFirstRegion(), "later regions are told when they differ")
    }
}
