import XCTest

@testable import Ripple

/// `_ExclusiveAccessBox`: state read and changed in place, shared by the references to
/// its box.
final class ExclusiveAccessBoxTests: XCTestCase {
    func testTheValueChangesInPlace() {
        let box = _ExclusiveAccessBox([Int]())
        let other = box
        for number in 0..<100 { box.value.append(number) }
        XCTAssertEqual(other.value.count, 100)
        XCTAssertEqual(other.value.last, 99)
    }
}
