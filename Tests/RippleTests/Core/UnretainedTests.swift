import XCTest

@testable import Ripple

/// The one place where objects are referred to without counting references: C context
/// pointers, and unretained references.
final class UnretainedTests: XCTestCase {
    private final class Object {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    func testAnUnretainedContextReachesItsObjectWithoutKeepingIt() {
        var object: Object? = Object(1)
        weak let weakObject = object
        let pointer = _CallbackContext.unretained(object!)
        XCTAssertEqual(_CallbackContext<Object>.object(pointer).value, 1)
        _CallbackContext.revoke(object!)
        object = nil
        XCTAssertNil(weakObject, "the pointer did not retain the object")
    }

    func testARetainedContextKeepsItsObjectUntilReleased() {
        var pointer: UnsafeMutableRawPointer?
        weak var weakObject: Object?
        do {
            let object = Object(2)
            weakObject = object
            pointer = _CallbackContext.retained(object)
        }
        XCTAssertEqual(weakObject?.value, 2, "the pointer keeps the object")
        XCTAssertEqual(_CallbackContext<Object>.retainedObject(pointer!).value, 2)
        _CallbackContext<Object>.release(pointer!)
        XCTAssertNil(weakObject, "released once, the object goes")
    }

    func testTakingARetainedContextHandsItsReferenceOver() {
        weak var weakObject: Object?
        var taken: Object?
        do {
            let object = Object(3)
            weakObject = object
            let pointer = _CallbackContext.retained(object)
            taken = _CallbackContext<Object>.takeRetained(pointer)
        }
        XCTAssertEqual(taken?.value, 3)
        taken = nil
        XCTAssertNil(weakObject, "the taker held the last reference")
    }

    func testAnUnretainedReferenceReachesItsObjectWithoutKeepingIt() {
        var object: Object? = Object(4)
        weak let weakObject = object
        let reference = _UnretainedReference(object!)
        XCTAssertEqual(reference.object.value, 4)
        XCTAssertTrue(reference.refers(to: object!))
        XCTAssertFalse(reference.refers(to: Object(4)))
        object = nil
        XCTAssertNil(weakObject, "the reference did not retain the object")
    }
}
