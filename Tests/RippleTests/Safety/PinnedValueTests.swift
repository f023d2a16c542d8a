import XCTest

@testable import Ripple

/// `_PinnedValue`: a value at one address for the lifetime of its box, given to C
/// callbacks (the row hooks' context, the row change log).
final class PinnedValueTests: XCTestCase {
    private final class Token {}

    private struct Payload {
        var numbers: [Int]
        var token: Token?
    }

    func testTheAddressStaysWhileTheValueChanges() {
        let box = _PinnedValue(Payload(numbers: [], token: nil))
        let address = box.pointer
        for number in 0..<1_000 { box.pointer.pointee.numbers.append(number) }
        XCTAssertEqual(box.pointer, address)
        XCTAssertEqual(address.pointee.numbers.count, 1_000)
        XCTAssertEqual(address.pointee.numbers.last, 999)
    }

    func testTheValueIsDestroyedWithTheBox() {
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            let box = _PinnedValue(Payload(numbers: [1], token: token))
            XCTAssertTrue(box.pointer.pointee.token === token)
        }
        // The box deinitialized its value: the token it held is gone.
        XCTAssertNil(weakToken)
    }

    func testTheRowHookContextIsFoundThroughTheRawPointerSQLiteKeeps() throws {
        let dbQueue = try DatabaseQueue()
        dbQueue.inDatabase { db in
            let broker = db.observationBroker
            let raw = UnsafeMutableRawPointer(broker.hookContext.pointer)
            let context = raw.assumingMemoryBound(to: RowHookContext.self)
            XCTAssertEqual(context.pointee.marker, RowHookContext.liveMarker)
            XCTAssertTrue(context.pointee.broker.map { _CallbackContext<DatabaseObservationBroker>.object($0) } === broker)
            // No statement collects row changes: no log.
            XCTAssertNil(context.pointee.log)
        }
    }
}
