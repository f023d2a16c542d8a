import Foundation
import XCTest

/// Collects published values, thread-safely.
// @unchecked Sendable: its values are only read and written under its lock.
final class Box<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var _values: [Value] = []
    var values: [Value] { lock.withLock { _values } }
    func append(_ value: Value) { lock.withLock { _values.append(value) } }

    func wait(until predicate: ([Value]) -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(5)
        while !predicate(values) {
            if Date() > deadline { return XCTFail("timeout: \(values)", file: file, line: line) }
            usleep(1000)
        }
    }
}
