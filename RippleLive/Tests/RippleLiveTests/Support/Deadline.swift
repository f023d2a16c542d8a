/// A test step that has not happened after a generous time: the test fails rather than
/// hangs. No test asserts how fast anything is.
struct StepTimedOut: Error, CustomStringConvertible {
    var step: String
    var description: String { "timed out: \(step)" }
}

func within<T: Sendable>(_ step: String, seconds: Int = 30, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw StepTimedOut(step: step) }
        return value
    }
}

/// Waits until `condition` holds, checking now and then.
func eventually(_ step: String, seconds: Int = 30, _ condition: @escaping @Sendable () async throws -> Bool) async throws {
    try await within(step, seconds: seconds) {
        while try await !condition() {
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
