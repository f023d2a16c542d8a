import Foundation
import XCTest

@testable import Ripple

/// A fresh temporary directory, removed when the test ends. In the child process of
/// `runInChildProcess`, which stops without ending its test, it is made in a directory
/// that the parent removes.
func makeTemporaryDirectory(_ test: XCTestCase) throws -> URL {
    let root =
        ProcessInfo.processInfo.environment[childTemporaryRootVariable].map { URL(fileURLWithPath: $0, isDirectory: true) }
        ?? FileManager.default.temporaryDirectory
    let url = root.appendingPathComponent("RippleTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
}

/// Waits until `condition` holds, for what other threads do by themselves (checks after
/// file events, timers); throws after `timeout` seconds.
func waitUntil(_ message: String, timeout: TimeInterval = 20, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while try !condition() {
        if Date() > deadline { throw DatabaseError(message: "timeout: \(message)") }
        usleep(1000)
    }
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
    _ expression: () throws -> T
) -> DatabaseError? {
    do {
        _ = try expression()
        XCTFail("expected a DatabaseError \(code), got no error", file: file, line: line)
        return nil
    } catch let error as DatabaseError {
        XCTAssertTrue(
            code ~= error.extendedResultCode,
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
/// The child is spawned and reaped with POSIX calls (Foundation's Process does not always
/// notice a child's exit under the thread sanitizer), and killed if it does not exit within
/// 60 seconds; what it wrote is returned all the same.
func runInChildProcess(test name: String) throws -> (status: Int32, stderr: String) {
    let executable = CommandLine.arguments[0]
    let errorPath = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-child-\(UUID().uuidString).txt").path
    defer { try? FileManager.default.removeItem(atPath: errorPath) }

    // The child stops without ending its test (it traps): its temporary directories go
    // with this one.
    let temporaryRoot = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-child-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: temporaryRoot, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: temporaryRoot) }

    var environment = ProcessInfo.processInfo.environment
    environment["RIPPLE_FATAL_SCENARIO"] = "1"
    environment[childTemporaryRootVariable] = temporaryRoot.path
    // Under the thread sanitizer, a crashing child must not hang while it symbolizes.
    environment["TSAN_OPTIONS"] = "symbolize=0:halt_on_error=1"
    func cString(_ string: String) -> UnsafeMutablePointer<CChar>? { string.withCString { strdup($0) } }
    let arguments: [UnsafeMutablePointer<CChar>?] = [cString(executable), cString(name), nil]
    let environmentStrings: [UnsafeMutablePointer<CChar>?] = environment.map { cString("\($0.key)=\($0.value)") } + [nil]
    defer {
        arguments.forEach { free($0) }
        environmentStrings.forEach { free($0) }
    }

    var fileActions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&fileActions)
    defer { posix_spawn_file_actions_destroy(&fileActions) }
    posix_spawn_file_actions_addopen(&fileActions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&fileActions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

    var pid: pid_t = 0
    let code = posix_spawn(&pid, executable, &fileActions, nil, arguments, environmentStrings)
    guard code == 0 else { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EINVAL) }

    var status: Int32 = 0
    let deadline = Date().addingTimeInterval(60)
    while waitpid(pid, &status, WNOHANG) == 0 {
        if Date() > deadline {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
            break
        }
        usleep(10_000)
    }
    let stderr = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
    // Exited normally with code 0, or not (a signal, or another code).
    let exitedNormally = status & 0x7f == 0
    let exitCode = (status >> 8) & 0xff
    return (exitedNormally ? exitCode : 128 + (status & 0x7f), stderr)
}

/// Runs the scenario `test` (a test of this bundle that returns at once unless
/// ``isFatalScenario``) in a child process, and checks that it ends in a fatal error whose
/// message contains each of `messages`. Linux only: elsewhere it checks nothing.
func assertFatalError(inScenario test: String, _ messages: String..., file: StaticString = #filePath, line: UInt = #line) throws {
    #if os(Linux)
    let result = try runInChildProcess(test: test)
    XCTAssertNotEqual(result.status, 0, "the scenario did not fail", file: file, line: line)
    for message in messages {
        XCTAssertTrue(result.stderr.contains(message), result.stderr, file: file, line: line)
    }
    #endif
}

/// Where the child process started by `runInChildProcess` makes its temporary directories.
let childTemporaryRootVariable = "RIPPLE_TEST_TEMPORARY_ROOT"

/// True in the child process started by `runInChildProcess`.
var isFatalScenario: Bool {
    ProcessInfo.processInfo.environment["RIPPLE_FATAL_SCENARIO"] == "1"
}
