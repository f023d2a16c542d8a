import Foundation
import XCTest

/// Collects values delivered by an observation, and waits for them.
// @unchecked Sendable: its values and errors are only read and written under `condition`.
final class ValueCollector<Value: Sendable>: @unchecked Sendable {
    // One condition guards the values and wakes waiters: no wake-up can be lost.
    private let condition = NSCondition()
    private var _values: [Value] = []
    private var _errors: [any Error] = []

    var values: [Value] { condition.withLock { _values } }
    var errors: [any Error] { condition.withLock { _errors } }

    func append(_ value: Value) {
        condition.withLock {
            _values.append(value)
            condition.broadcast()
        }
    }

    func append(error: any Error) {
        condition.withLock {
            _errors.append(error)
            condition.broadcast()
        }
    }

    /// Waits until `predicate` holds for the values, for 5 seconds at most.
    @discardableResult
    func wait(until predicate: ([Value]) -> Bool, file: StaticString = #filePath, line: UInt = #line) -> [Value] {
        let deadline = Date().addingTimeInterval(5)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(_values) {
            if !condition.wait(until: deadline), !predicate(_values) {
                XCTFail("timeout; values: \(_values)", file: file, line: line)
                break
            }
        }
        return _values
    }

    /// Waits until `count` values arrived, for 5 seconds at most; returns the values then,
    /// for the caller to check.
    func wait(for count: Int) -> [Value] {
        let deadline = Date().addingTimeInterval(5)
        condition.lock()
        defer { condition.unlock() }
        while _values.count < count, condition.wait(until: deadline) {}
        return _values
    }
}
