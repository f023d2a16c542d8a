import Dispatch
import XCTest

@testable import Ripple

final class ObservationBatchPacingTests: XCTestCase {
    func testAFetchAskedWhileTheReaderIsIdleStartsABatchAtOnce() {
        var pacing = ObservationBatchPacing<Int>()
        XCTAssertTrue(pacing.ask(1), "idle: the batch starts now")
        XCTAssertEqual(pacing.takeBatch(), [1])
        XCTAssertNil(pacing.batchDidEnd(duration: 1_000), "nothing asked meanwhile: idle again")
        XCTAssertFalse(pacing.isBusy)
        XCTAssertTrue(pacing.ask(2), "idle again: at once")
    }

    func testFetchesAskedDuringABatchRunTogetherAfterAPauseAsLongAsItRan() {
        var pacing = ObservationBatchPacing<Int>()
        XCTAssertTrue(pacing.ask(1))
        XCTAssertEqual(pacing.takeBatch(), [1])
        XCTAssertFalse(pacing.ask(2), "a batch runs: wait")
        XCTAssertFalse(pacing.ask(3))
        XCTAssertEqual(pacing.batchDidEnd(duration: 3_000), 3_000, "a pause as long as the batch ran")
        XCTAssertFalse(pacing.ask(4), "during the pause: wait, and join the next batch")
        XCTAssertEqual(pacing.takeBatch(), [2, 3, 4], "nothing is dropped, in order")
        XCTAssertNil(pacing.batchDidEnd(duration: 3_000))
        XCTAssertFalse(pacing.isBusy)
    }

    func testThePauseIsBounded() {
        var pacing = ObservationBatchPacing<Int>()
        XCTAssertTrue(pacing.ask(1))
        _ = pacing.takeBatch()
        XCTAssertFalse(pacing.ask(2))
        XCTAssertEqual(
            pacing.batchDidEnd(duration: 5_000_000_000), ObservationBatchPacing<Int>.maximumPause,
            "a slow batch does not hold the next one as long again")
    }
}
