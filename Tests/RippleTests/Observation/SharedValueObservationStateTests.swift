import Dispatch
import Foundation
import XCTest

@testable import Ripple

/// The pure state of a shared observation.
final class SharedValueObservationStateTests: XCTestCase {
    struct Failure: Error {}

    func testFirstSubscriberStartsLaterOnesGetTheLastValue() {
        var state = SharedValueObservationState<Int>(extent: .whileObserved)
        let (a, startA) = state.subscribe()
        guard case .startObservation(let generation) = startA else { return XCTFail("\(startA)") }
        XCTAssertTrue(state.keepsObservation(of: generation))
        let (_, startB) = state.subscribe()
        guard case .none = startB else { return XCTFail("no value yet: \(startB)") }
        XCTAssertEqual(state.receive(5).count, 2)
        let (c, startC) = state.subscribe()
        guard case .deliverLast = startC else { return XCTFail("\(startC)") }
        XCTAssertTrue(state.isSubscribed(a) && state.isSubscribed(c))
        guard case .success(5)? = state.takeLastResult(for: c) else { return XCTFail() }
        XCTAssertNil(state.takeLastResult(for: c), "delivered once")
    }

    /// A value that reaches a new subscriber before its last result does makes the last
    /// result stale: it is not delivered after the newer value.
    func testNoStaleLastResultAfterANewerValue() {
        var state = SharedValueObservationState<Int>(extent: .whileObserved)
        _ = state.subscribe()
        _ = state.receive(0)
        let (late, action) = state.subscribe()
        guard case .deliverLast = action else { return XCTFail("\(action)") }
        XCTAssertTrue(state.receive(1).contains(late))
        XCTAssertNil(state.takeLastResult(for: late), "1 reached it already; 0 would come after")
    }

    func testWhileObservedStopsWithTheLastSubscriberAndOnError() {
        var state = SharedValueObservationState<Int>(extent: .whileObserved)
        let (a, first) = state.subscribe()
        guard case .startObservation(let g1) = first else { return XCTFail() }
        _ = state.receive(1)
        XCTAssertTrue(state.unsubscribe(a), "the last subscriber left")
        XCTAssertFalse(state.keepsObservation(of: g1))
        XCTAssertNil(state.lastResult)
        let (_, again) = state.subscribe()
        guard case .startObservation(let g2) = again else { return XCTFail("\(again)") }
        XCTAssertNotEqual(g1, g2)
        let (notified, stops) = state.receive(error: Failure())
        XCTAssertEqual(notified.count, 1)
        XCTAssertTrue(stops)
        XCTAssertFalse(state.isObserving)
        XCTAssertTrue(state.subscribers.isEmpty)
    }

    func testObservationLifetimeKeepsObservingAndTheError() {
        var state = SharedValueObservationState<Int>(extent: .observationLifetime)
        let (a, _) = state.subscribe()
        XCTAssertFalse(state.unsubscribe(a), "observing goes on")
        XCTAssertTrue(state.isObserving)
        let (_, stops) = state.receive(error: Failure())
        XCTAssertFalse(stops)
        let (id, later) = state.subscribe()
        guard case .deliverLast = later, case .failure? = state.takeLastResult(for: id) else { return XCTFail("\(later)") }
    }

    func testUnknownSubscriberChangesNothing() {
        var state = SharedValueObservationState<Int>(extent: .whileObserved)
        _ = state.subscribe()
        XCTAssertFalse(state.unsubscribe(99))
        XCTAssertTrue(state.isObserving)
    }
}
