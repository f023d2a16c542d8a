import Foundation

/// A program the tests run beside them (the server, chromedriver), whose output is read
/// line by line until it ends; terminated when the test is done with it.
final class ChildProcess: @unchecked Sendable {  // `process` is set up before run(); `output` is behind `lock`
    private let process = Process()
    private let lock = NSLock()
    private var output = ""
    private var ended = false

    /// Starts `executable` with `arguments`; its standard output and error are collected.
    init(_ executable: URL, _ arguments: [String]) throws {
        let pipe = Pipe()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let handle = pipe.fileHandleForReading
        // Reads until the program ends, so that a full pipe never blocks it.
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                lock.withLock {
                    if chunk.isEmpty { ended = true } else { output += String(decoding: chunk, as: UTF8.self) }
                }
                if chunk.isEmpty { return }
            }
        }
    }

    /// What the program printed so far.
    var printed: String { lock.withLock { output } }

    /// The first printed line that contains `marker`, once printed.
    func line(containing marker: String, seconds: Int = 60) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            let (lines, ended) = lock.withLock { (output.split(separator: "\n"), self.ended) }
            if let line = lines.first(where: { $0.contains(marker) }) { return String(line) }
            if ended { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestFailure("no line with \"\(marker)\" from \(process.executableURL?.lastPathComponent ?? "?"); it printed:\n\(printed)")
    }

    /// Stops the program: SIGTERM, then SIGKILL if it is still there after a while.
    func terminate() {
        guard process.isRunning else { return }
        process.terminate()
        for _ in 0..<100 where process.isRunning {
            usleep(50_000)
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
    }
}

/// Runs `executable` to its end; fails unless it exits with 0.
@discardableResult
func runToEnd(_ executable: URL, _ arguments: [String]) async throws -> String {
    let child = try ChildProcess(executable, arguments)
    try await eventually("\(executable.lastPathComponent) \(arguments.joined(separator: " ")) ends") { !child.isRunning }
    child.terminate()
    guard child.status == 0 else {
        throw TestFailure("\(executable.lastPathComponent) \(arguments.joined(separator: " ")) failed: \(child.printed)")
    }
    return child.printed
}

extension ChildProcess {
    var isRunning: Bool { process.isRunning }
    var status: Int32 { process.terminationStatus }
}

/// A failed step, with what went wrong.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Waits until `condition` holds, checking now and then; fails after a generous time. No
/// test asserts how fast anything is.
func eventually(_ step: String, seconds: Int = 60, _ condition: @Sendable () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw TestFailure("timed out: \(step)") }
        try await Task.sleep(for: .milliseconds(50))
    }
}
