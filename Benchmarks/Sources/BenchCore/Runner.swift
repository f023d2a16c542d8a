import Foundation

/// Runs workloads for each subject, interleaved, and prints the table.
public struct Runner {
    public var subjects: [any BenchSubject]
    public var workloads: [WorkloadID]
    public var sizes: Sizes
    public var rounds: Int

    public init(subjects: [any BenchSubject], workloads: [WorkloadID], sizes: Sizes, rounds: Int) {
        self.subjects = subjects
        self.workloads = workloads
        self.sizes = sizes
        self.rounds = rounds
    }

    struct Result {
        var samples: [Sample] = []
        var minimum: Double { samples.map(\.seconds).min() ?? .nan }
        var median: Double {
            let sorted = samples.map(\.seconds).sorted()
            return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
        }
        func medianCounter(_ key: String) -> Double? {
            let values = samples.compactMap { $0.counters[key] }.sorted()
            return values.isEmpty ? nil : values[values.count / 2]
        }
    }

    public func run() throws {
        var results: [WorkloadID: [String: Result]] = [:]
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }

        for workload in workloads {
            let runs = subjects.compactMap { subject in subject.run(workload).map { (subject.name, $0) } }
            guard !runs.isEmpty else { continue }
            print("\(workload.rawValue): \(workload.summary)", terminator: "")
            fflush(nil)
            // Round 0 is the warm-up; each round rotates which subject goes first.
            for round in 0...rounds {
                for offset in 0..<runs.count {
                    let (name, run) = runs[(round + offset) % runs.count]
                    let directory = base.appendingPathComponent("\(workload.rawValue)-\(name)-\(round)")
                    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                    let sample = try run(directory, sizes)
                    try? FileManager.default.removeItem(at: directory)
                    if round > 0 { results[workload, default: [:]][name, default: Result()].samples.append(sample) }
                }
                print(".", terminator: "")
                fflush(nil)
            }
            print("")
        }
        printTable(results)
    }

    private func printTable(_ results: [WorkloadID: [String: Result]]) {
        let names = subjects.map(\.name)
        print("")
        print("Ripple benchmarks: \(rounds) rounds after a warm-up, subjects interleaved.")
        print("Times in seconds per sample (min / median); ratios per operation on the minimum.")
        print("")
        var header = "| workload |"
        for name in names { header += " \(name) min | \(name) median |" }
        header += " Ripple/raw | Ripple/GRDB | notes |"
        print(header)
        print("|" + String(repeating: "---|", count: 2 * names.count + 4))
        for workload in workloads {
            guard let byName = results[workload] else { continue }
            var line = "| \(workload.rawValue) |"
            for name in names {
                if let result = byName[name] {
                    line += " \(format(result.minimum)) | \(format(result.median)) |"
                } else {
                    line += " n/a | n/a |"
                }
            }
            let ripple = byName["Ripple"]?.minimum
            // The raw baseline measured in this workload's own rounds when raw ran in them
            // (W1b-W1d and W5b run the raw code of W1a and W5c), else the baseline workload's.
            var rawMinimum = byName["raw"]?.minimum
            if rawMinimum == nil, let baseline = workload.rawBaseline {
                rawMinimum = results[baseline]?["raw"]?.minimum
            }
            let grdb = byName["GRDB"]?.minimum
            line += " \(ratio(ripple, rawMinimum)) | \(ratio(ripple, grdb)) |"
            var notes: [String] = []
            for name in names {
                guard let result = byName[name] else { continue }
                for key in Self.noteKeys {
                    if let value = result.medianCounter(key) {
                        notes.append("\(name) \(key) \(format(value))")
                    }
                }
            }
            if workload == .w7, names.contains("GRDB"), byName["GRDB"] == nil {
                notes.append("GRDB never sees another process's commits")
            }
            line += " \(notes.joined(separator: ", ")) |"
            print(line)
        }
        printRatiosBetweenWorkloads(results)
        print("")
        print("Sizes: W1 \(sizes.w1Inserts) inserts, W2 \(sizes.w2Rows) rows, W3 \(sizes.w3Observations) observations x \(sizes.w3Transactions) transactions, W4 \(sizes.w4Transactions) writes, W5 \(sizes.w5Transactions) transactions, W6 \(sizes.w6Observations) observations x \(sizes.w6Transactions) transactions, W6s \(sizes.w6sObservations) observations during a \(sizes.w6sWriteSeconds) s write, W7 \(sizes.w7Transactions) transactions, W8 \(sizes.w8Rows) rows in \(sizes.w8Transactions) transactions with \(sizes.w8Observations) observations.")
    }

    /// The counters shown in the notes, medians over the samples: W3/W6 fetches, W4/W7
    /// latencies, W6m resident and heap bytes per observation, W6s's time as a fraction of
    /// the write and the first values delivered before its commit, W8's import without
    /// observations, the ratio of the two imports, and the values delivered.
    static let noteKeys = ["fetches", "p50_us", "p99_us", "bytes_per_obs", "heap_per_obs", "cancel_s", "of_write", "before_commit", "base_s", "watched_s", "ratio", "values"]

    /// Ratios that compare two workloads of the same subject: W6 ÷ W6one and W6r ÷ W6rone
    /// (the same number of transactions: per transaction), and W8 ÷ its import without
    /// observations, all on the minimum.
    private func printRatiosBetweenWorkloads(_ results: [WorkloadID: [String: Result]]) {
        var lines: [String] = []
        for (workload, baseline) in [(WorkloadID.w6, WorkloadID.w6one), (.w6r, .w6rone)] {
            let ratios = subjects.map(\.name).compactMap { name -> String? in
                guard let a = results[workload]?[name]?.minimum, let b = results[baseline]?[name]?.minimum else { return nil }
                return "\(name) \(ratio(a, b))"
            }
            if !ratios.isEmpty { lines.append("\(workload.rawValue) ÷ \(baseline.rawValue) per transaction: " + ratios.joined(separator: ", ")) }
        }
        let importRatios = subjects.map(\.name).compactMap { name -> String? in
            guard let result = results[.w8]?[name] else { return nil }
            let base = result.samples.compactMap { $0.counters["base_s"] }.min()
            return "\(name) \(ratio(result.minimum, base))"
        }
        if !importRatios.isEmpty { lines.append("W8 ÷ the same import without observations: " + importRatios.joined(separator: ", ")) }
        let watchRatios = subjects.map(\.name).compactMap { name -> String? in
            guard let result = results[.w5d]?[name] else { return nil }
            let watched = result.samples.compactMap { $0.counters["watched_s"] }.min()
            return "\(name) \(ratio(watched, result.minimum))"
        }
        if !watchRatios.isEmpty { lines.append("W5b ÷ W5d, paired in each W5d sample (what watching other processes costs): " + watchRatios.joined(separator: ", ")) }
        guard !lines.isEmpty else { return }
        print("")
        print("Between workloads (minimum ÷ minimum):")
        for line in lines { print("- " + line) }
    }

    private func format(_ value: Double) -> String {
        if value.isNaN { return "n/a" }
        if value >= 100 { return String(format: "%.0f", value) }
        if value >= 1 { return String(format: "%.3f", value) }
        return String(format: "%.4f", value)
    }

    private func ratio(_ a: Double?, _ b: Double?) -> String {
        guard let a, let b, b > 0 else { return "n/a" }
        return String(format: "%.2f", a / b)
    }
}
