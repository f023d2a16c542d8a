import CMallocBench
import Foundation

/// W3: knows the last value written to each row, and waits until each observation of an
/// updated row has delivered it.
public final class RowTracker: @unchecked Sendable {
    private let lock = NSLock()
    private let expected: [Int64: Int64]
    private var remaining: Set<Int64>
    private var initialCount = 0
    private var seenInitial: Set<Int64> = []
    private let observations: Int
    private let initialDone = DispatchSemaphore(value: 0)
    private let finalDone = DispatchSemaphore(value: 0)
    private var finalSignaled = false

    public static func value(_ transactionIndex: Int) -> Int64 { 1_000_000 + Int64(transactionIndex) }

    public init(observations: Int, updates: [Int64]) {
        self.observations = observations
        var expected: [Int64: Int64] = [:]
        for (index, id) in updates.enumerated() { expected[id] = Self.value(index) }
        self.expected = expected
        self.remaining = Set(expected.keys)
    }

    public func received(id: Int64, value: Int64?) {
        lock.lock()
        defer { lock.unlock() }
        if seenInitial.count < observations {
            if seenInitial.insert(id).inserted, seenInitial.count == observations { initialDone.signal() }
            return
        }
        if let value, expected[id] == value, remaining.remove(id) != nil, remaining.isEmpty, !finalSignaled {
            finalSignaled = true
            finalDone.signal()
        }
    }

    public func waitForInitialValues() { initialDone.wait() }

    public func waitForFinalValues() {
        lock.lock()
        let done = remaining.isEmpty
        lock.unlock()
        if !done { finalDone.wait() }
    }
}

/// W4: measures the time from the start of each write to the delivery of its value.
public final class LatencyProbe: @unchecked Sendable {
    private let lock = NSLock()
    private var target: Int64 = -1
    private var startTime = 0.0
    private var latencies: [Double] = []
    private let delivered = DispatchSemaphore(value: 0)

    public init() {}

    public func start(_ value: Int64) {
        lock.lock()
        target = value
        startTime = now()
        lock.unlock()
    }

    public func received(_ value: Int64) {
        let time = now()
        lock.lock()
        defer { lock.unlock() }
        if value == target {
            if value >= 0 { latencies.append(time - startTime) }
            target = Int64.min
            delivered.signal()
        }
    }

    public func waitFor(_ value: Int64) {
        delivered.wait()
    }

    public func percentiles() -> [String: Double] {
        lock.lock()
        defer { lock.unlock() }
        let sorted = latencies.sorted()
        return ["p50_us": percentile(sorted, 0.5) * 1e6, "p99_us": percentile(sorted, 0.99) * 1e6]
    }
}

/// W6r, W6rone: the rows whose region observations were notified, in order. Region
/// observations are notified on the writer, right after each commit.
public final class NotifiedRows: @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [Int64] = []

    public init(capacity: Int) { rows.reserveCapacity(capacity) }

    public func received(_ id: Int64) {
        lock.lock()
        rows.append(id)
        lock.unlock()
    }

    public var all: [Int64] { lock.lock(); defer { lock.unlock() }; return rows }
}

/// W6m, W6s, W8: the values of `observations` observations, numbered from 0: when each
/// delivered its first value, and when each holds `final`.
public final class ObservationTracker: @unchecked Sendable {
    private let lock = NSLock()
    private let observations: Int
    private let final: Int64
    private var firstTimes: [Double]
    private var holdsFinal: [Bool]
    private var firstCount = 0
    private var finalCount = 0
    private var laterCount = 0
    private let firstDone = DispatchSemaphore(value: 0)
    private let finalDone = DispatchSemaphore(value: 0)

    /// All storage is allocated here, before the workload (W6m reads the resident size).
    public init(observations: Int, final: Int64 = .min) {
        self.observations = observations
        self.final = final
        firstTimes = Array(repeating: .nan, count: observations)
        holdsFinal = Array(repeating: false, count: observations)
    }

    public func received(_ index: Int, _ value: Int64) {
        let time = now()
        lock.lock()
        defer { lock.unlock() }
        if firstTimes[index].isNaN {
            firstTimes[index] = time
            firstCount += 1
            if firstCount == observations { firstDone.signal() }
        } else {
            laterCount += 1
        }
        if value == final, !holdsFinal[index] {
            holdsFinal[index] = true
            finalCount += 1
            if finalCount == observations { finalDone.signal() }
        }
    }

    public func waitForFirstValues() { firstDone.wait() }

    /// Waits until every observation delivered `final`; false after `timeout` seconds.
    public func waitForFinalValues(timeout: Double) -> Bool {
        finalDone.wait(timeout: .now() + timeout) == .success
    }

    /// How many first values were delivered before `time`.
    public func firstValues(before time: Double) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return firstTimes.filter { $0 < time }.count
    }

    /// The values delivered after each observation's first one.
    public var laterValues: Int { lock.lock(); defer { lock.unlock() }; return laterCount }

    /// How many observations do not hold `final` (yet).
    public var missingFinal: Int { lock.lock(); defer { lock.unlock() }; return observations - finalCount }
}

/// W6s: a write transaction that lasts, on a thread of its own. The subject's closure
/// begins the transaction, writes, calls `began()`, sleeps, and commits.
public final class LongWrite: @unchecked Sendable {
    private let lock = NSLock()
    private var beganAt = Double.nan
    private var committedAt = Double.nan
    private var failure: (any Error)?
    private let beganSignal = DispatchSemaphore(value: 0)
    private let doneSignal = DispatchSemaphore(value: 0)

    public init() {}

    /// Runs `transaction` on a new thread; `transaction` calls `began` once it wrote.
    public func start(_ transaction: @escaping @Sendable (_ began: @Sendable () -> Void) throws -> Void) {
        Thread.detachNewThread { [self] in
            do {
                try transaction {
                    self.lock.lock()
                    self.beganAt = now()
                    self.lock.unlock()
                    self.beganSignal.signal()
                }
            } catch {
                lock.lock()
                failure = error
                lock.unlock()
                beganSignal.signal()
            }
            lock.lock()
            committedAt = now()
            lock.unlock()
            doneSignal.signal()
        }
    }

    /// Waits until the transaction wrote; the time it did.
    public func waitUntilBegan() throws -> Double {
        beganSignal.wait()
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw failure }
        return beganAt
    }

    /// Waits until the transaction committed; the times it began and committed.
    public func waitUntilCommitted() throws -> (began: Double, committed: Double) {
        doneSignal.wait()
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw failure }
        return (beganAt, committedAt)
    }
}

/// This process's memory: its resident size (Linux: `/proc/self/statm`), and the bytes the
/// allocator handed out and did not get back (glibc's `mallinfo2`); nil where unknown.
public struct MemoryUse: Sendable {
    public var resident: Int?
    public var heap: Int?

    public static func now() -> MemoryUse {
        let heap = Int(bench_heap_in_use())
        return MemoryUse(resident: residentBytes(), heap: heap >= 0 ? heap : nil)
    }

    static func residentBytes() -> Int? {
        #if os(Linux)
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
        return nil
        #endif
    }
}

/// W6m runs in child processes (this executable, `--w6m-child SUBJECT DIRECTORY N`), so that
/// each subject's memory is measured in a process where no other subject allocated any.
public enum MemoryChild {
    public static let flag = "--w6m-child"

    /// Starts the child for `subject`, and returns its sample: seconds from the start of the
    /// first observation until all delivered their first value; resident bytes (and heap
    /// bytes in use) added per observation.
    public static func sample(subject: String, directory: URL, observations: Int) throws -> Sample {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = [flag, subject, directory.path, String(observations)]
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        var fields: [String: Double] = [:]
        for pair in text.split(whereSeparator: \.isWhitespace) {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Double(parts[1]) { fields[String(parts[0])] = value }
        }
        guard child.terminationStatus == 0, let seconds = fields["seconds"] else {
            throw MemoryChildError(description: "the W6m child for \(subject) failed: \(text)")
        }
        var counters: [String: Double] = [:]
        for key in ["bytes_per_obs", "heap_per_obs", "cancel_s"] { counters[key] = fields[key] }
        return Sample(seconds: seconds, counters: counters)
    }

    /// The line the child prints.
    public static func report(subject: String, observations: Int, before: MemoryUse, after: MemoryUse, seconds: Double, cancelSeconds: Double) -> String {
        var line = "W6m \(subject) observations=\(observations) seconds=\(seconds) cancel_s=\(cancelSeconds)"
        func perObservation(_ before: Int, _ after: Int) -> String {
            String(format: "%.0f", Double(after - before) / Double(observations))
        }
        if let before = before.resident, let after = after.resident {
            line += " rss_before=\(before) rss_after=\(after) bytes_per_obs=\(perObservation(before, after))"
        }
        if let before = before.heap, let after = after.heap {
            line += " heap_before=\(before) heap_after=\(after) heap_per_obs=\(perObservation(before, after))"
        }
        return line
    }

    struct MemoryChildError: Error, CustomStringConvertible {
        var description: String
    }
}
