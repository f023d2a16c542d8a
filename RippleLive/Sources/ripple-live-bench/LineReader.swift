import Foundation
import NIOConcurrencyHelpers

/// Lines read from a file descriptor (a pipe to or from another process of the
/// benchmark), on a thread of their own: a blocking read never holds one of the few
/// threads that run Swift tasks.
final class LineReader: Sendable {
    private struct State {
        var lines: [String] = []
        var ended = false
        var waiter: CheckedContinuation<String?, Never>?
    }

    private let state = NIOLockedValueBox(State())

    init(fileDescriptor: Int32) {
        let thread = Thread { [self] in readLines(fileDescriptor) }
        thread.start()
    }

    /// The next line, without its newline; nil once the other end closed.
    func next() async -> String? {
        await withCheckedContinuation { continuation in
            let ready = state.withLockedValue { state -> String?? in
                if !state.lines.isEmpty { return .some(state.lines.removeFirst()) }
                if state.ended { return .some(nil) }
                state.waiter = continuation
                return .none
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    private func readLines(_ fileDescriptor: Int32) {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            pending += chunk[0..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                push(String(decoding: pending[..<newline], as: UTF8.self))
                pending.removeSubrange(...newline)
            }
        }
        let waiter = state.withLockedValue { state in
            state.ended = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    private func push(_ line: String) {
        let waiter = state.withLockedValue { state in
            guard let waiter = state.waiter else {
                state.lines.append(line)
                return CheckedContinuation<String?, Never>?.none
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: line)
    }
}

/// Writes one line at once to `fileDescriptor` (unbuffered: the other process waits for it).
func writeLine(_ line: String, to fileDescriptor: Int32 = STDOUT_FILENO) {
    let bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(fileDescriptor, $0.baseAddress, $0.count) }
        if written <= 0 { return }
        offset += written
    }
}
