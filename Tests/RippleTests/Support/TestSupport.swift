import Foundation
import XCTest
@testable import Ripple

/// A fresh temporary directory, removed when the test ends.
func makeTemporaryDirectory(_ test: XCTestCase) throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("RippleTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
}

/// A path for a database file in a fresh temporary directory.
func makeTemporaryDatabasePath(_ test: XCTestCase, name: String = "db.sqlite") throws -> String {
    try makeTemporaryDirectory(test).appendingPathComponent(name).path
}

/// Asserts that `expression` throws a DatabaseError whose code matches `code` (primary
/// codes match their extended codes), and returns it.
@discardableResult
func assertDatabaseError<T>(
    _ code: ResultCode,
    file: StaticString = #filePath, line: UInt = #line,
    _ expression: () throws -> T) -> DatabaseError?
{
    do {
        _ = try expression()
        XCTFail("expected a DatabaseError \(code), got no error", file: file, line: line)
        return nil
    } catch let error as DatabaseError {
        XCTAssertTrue(code ~= error.extendedResultCode,
            "expected \(code), got \(error.extendedResultCode): \(error)", file: file, line: line)
        return error
    } catch {
        XCTFail("expected a DatabaseError, got \(error)", file: file, line: line)
        return nil
    }
}

/// Collects the SQL a connection runs.
final class SQLRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var _statements: [String] = []
    var statements: [String] { lock.withLock { _statements } }
    func record(_ sql: String) { lock.withLock { _statements.append(sql) } }
    func clear() { lock.withLock { _statements.removeAll() } }
}

extension Database {
    /// Records each statement it runs into `recorder`.
    func record(into recorder: SQLRecorder) {
        trace { event in recorder.record(event.description) }
    }
}

/// Runs one test of this test bundle in a child process, and returns its exit status and
/// standard error: the way to check that a programmer error is fatal, with its message.
func runInChildProcess(test name: String) throws -> (status: Int32, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = [name]
    var environment = ProcessInfo.processInfo.environment
    environment["RIPPLE_FATAL_SCENARIO"] = "1"
    process.environment = environment
    let errorPipe = Pipe()
    process.standardError = errorPipe
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let data = errorPipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// True in the child process started by `runInChildProcess`.
var isFatalScenario: Bool {
    ProcessInfo.processInfo.environment["RIPPLE_FATAL_SCENARIO"] == "1"
}
