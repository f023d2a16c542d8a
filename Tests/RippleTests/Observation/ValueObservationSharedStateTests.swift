import XCTest

@testable import Ripple

/// The part of a value observation's state that decides when its closures are let go,
/// tested without threads (see `ValueObservationRunner.whileInUse`).
final class ValueObservationSharedStateTests: XCTestCase {
    private func makeState() -> ValueObservationSharedState {
        var state = ValueObservationSharedState(events: [ValueObservationEvents(willStart: {})])
        _ = state.deliveries.append({})
        return state
    }

    func testACancelWithoutWorkUnderWayLetsGoAtOnce() {
        var state = makeState()
        XCTAssertNil(state.letGo(), "nothing is let go before the cancel")
        XCTAssertTrue(state.cancel())
        XCTAssertFalse(state.cancel(), "cancelled already")
        let released = state.letGo()
        XCTAssertEqual(released?.events.count, 1)
        XCTAssertEqual(released?.deliveries.count, 1)
        XCTAssertTrue(state.events.isEmpty)
        XCTAssertEqual(state.deliveries.count, 0)
    }

    func testACancelDuringWorkLetsGoWhenTheLastWorkEnds() {
        var state = makeState()
        state.beginUse()
        state.beginUse()
        XCTAssertTrue(state.cancel())
        XCTAssertNil(state.letGo(), "work under way still holds the closures")
        XCTAssertEqual(state.events.count, 1, "kept for the work under way")
        state.endUse()
        XCTAssertNil(state.letGo(), "one more work under way")
        state.endUse()
        XCTAssertEqual(state.letGo()?.events.count, 1, "the last work ended")
        XCTAssertTrue(state.events.isEmpty)
    }

    func testWorkThatEndsBeforeTheCancelLetsNothingGo() {
        var state = makeState()
        state.beginUse()
        state.endUse()
        XCTAssertNil(state.letGo())
        XCTAssertEqual(state.events.count, 1)
        XCTAssertEqual(state.usesInProgress, 0)
    }
}
