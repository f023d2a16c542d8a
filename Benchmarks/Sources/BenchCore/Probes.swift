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
