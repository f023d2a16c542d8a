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
///
/// A child that does not exit within 60 seconds is killed (the thread sanitizer can hang a
/// crashing process); what it wrote is returned all the same.
func runInChildProcess(test name: String) throws -> (status: Int32, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = [name]
    var environment = ProcessInfo.processInfo.environment
    environment["RIPPLE_FATAL_SCENARIO"] = "1"
    // Under the thread sanitizer, a crashing child must not hang while it symbolizes.
    environment["TSAN_OPTIONS"] = "symbolize=0:halt_on_error=1"
    process.environment = environment
    let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-child-\(UUID().uuidString).txt")
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errorFile) }
    let errorHandle = try FileHandle(forWritingTo: errorFile)
    process.standardError = errorHandle
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(60)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
    try errorHandle.close()
    let stderr = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
    return (process.terminationStatus == 0 && process.terminationReason == .exit ? 0 : max(1, process.terminationStatus), stderr)
}

/// True in the child process started by `runInChildProcess`.
var isFatalScenario: Bool {
    ProcessInfo.processInfo.environment["RIPPLE_FATAL_SCENARIO"] == "1"
}
