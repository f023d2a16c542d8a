import Foundation

/// Another process of this executable (a client or a server mode), driven by lines: the
/// driver writes commands to its standard input and reads its answers from its standard
/// output. Its standard error goes to the driver's.
final class BenchChild: Sendable {
    private let process: Process
    private let input: FileHandle
    private let output: LineReader

    /// Starts this executable with `arguments`.
    init(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = arguments
        let toChild = Pipe()
        let fromChild = Pipe()
        process.standardInput = toChild
        process.standardOutput = fromChild
        try process.run()
        self.process = process
        self.input = toChild.fileHandleForWriting
        self.output = LineReader(fileDescriptor: fromChild.fileHandleForReading.fileDescriptor)
    }

    var pid: Int32 { process.processIdentifier }

    /// Sends `command`, and returns the answer's words after the expected first one.
    func ask(_ command: String, expecting answer: String) async throws -> [Substring] {
        writeLine(command, to: input.fileDescriptor)
        return try await expect(answer)
    }

    /// The next line, which must begin with `word`: its other words.
    func expect(_ word: String) async throws -> [Substring] {
        guard let line = await output.next() else { throw BenchFailure("a child ended while the driver waited for \"\(word)\"") }
        let words = line.split(separator: " ")
        guard words.first.map(String.init) == word else { throw BenchFailure("a child answered \"\(line)\" instead of \"\(word)\"") }
        return Array(words.dropFirst())
    }

    /// Tells the child to quit, and waits until it did.
    func quit() async {
        writeLine("quit", to: input.fileDescriptor)
        while process.isRunning {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}

/// A step of the benchmark that could not be done.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
