import BenchCore
import Foundation
import GRDBSubject
import RawSubject
import RippleSubject

// swift run -c release --package-path Benchmarks ripple-bench [--quick] [--filter W1] [--rounds N]

// SQLite's memory statistics are a setting of the whole process, which its first connection
// fixes: every subject runs with the same one. By default, SQLite's own (on), as raw SQLite
// and GRDB run in an application of their own, and as every figure before session 9 was
// measured; RIPPLE_BENCH_SQLITE_MEMSTATUS=off gives every subject Ripple's (off: an
// allocation then takes no process-wide mutex, W8). The child processes of W6m and W7
// inherit the variable.
let sqliteMemoryStatistics = ProcessInfo.processInfo.environment["RIPPLE_BENCH_SQLITE_MEMSTATUS"] != "off"
BenchSQLite.setMemoryStatistics(sqliteMemoryStatistics)
if sqliteMemoryStatistics { RippleSubject.keepSQLiteMemoryStatistics() }

var arguments = Array(CommandLine.arguments.dropFirst())
// The writing process of W7, which W7 starts.
if arguments.first == "--w7-writer", arguments.count == 2 {
    try RippleSubject.runW7Writer(path: arguments[1])
    exit(0)
}
// The measuring process of W6m, which W6m starts: `--w6m-child SUBJECT [DIRECTORY [N]]`.
if arguments.first == MemoryChild.flag, (2...4).contains(arguments.count) {
    let directory = arguments.count > 2
        ? URL(fileURLWithPath: arguments[2])
        : FileManager.default.temporaryDirectory.appendingPathComponent("ripple-bench-w6m-\(UUID().uuidString)")
    let observations = arguments.count > 3 ? Int(arguments[3]) ?? 0 : Sizes().w6Observations
    guard observations > 0 else { fatalError("\(MemoryChild.flag) needs a positive number of observations") }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let report: String
    switch arguments[1].lowercased() {
    case "ripple": report = try RippleSubject.runW6mChild(directory: directory, observations: observations)
    case "grdb": report = try GRDBSubject.runW6mChild(directory: directory, observations: observations)
    default: fatalError("\(MemoryChild.flag) needs a subject: Ripple or GRDB")
    }
    print(report)
    if arguments.count == 2 { try? FileManager.default.removeItem(at: directory) }
    exit(0)
}
var sizes = Sizes()
var rounds = 5
var filters: [String] = []
var subjectNames: [String] = []
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--quick":
        sizes = .quick
        rounds = 2
    case "--filter":
        guard !arguments.isEmpty else { fatalError("--filter needs a value, such as W1 or W2a") }
        filters.append(arguments.removeFirst())
    case "--subject":
        guard !arguments.isEmpty else { fatalError("--subject needs a value: raw, Ripple or GRDB") }
        subjectNames.append(arguments.removeFirst().lowercased())
    case "--rounds":
        guard let value = arguments.first.flatMap(Int.init), value > 0 else { fatalError("--rounds needs a positive number") }
        arguments.removeFirst()
        rounds = value
    case "-h", "--help":
        print("""
            usage: ripple-bench [--quick] [--filter PREFIX]... [--subject NAME]... [--rounds N]
              --quick          smaller sizes, 2 rounds: a smoke run
              --filter PREFIX  only workloads whose name starts with PREFIX (W1, W2a, ...)
              --subject NAME   only this subject (raw, Ripple, GRDB); ratios need both sides
              --rounds N       measured rounds after the warm-up (default 5)
              --w6m-child NAME [DIRECTORY [N]]
                               W6m's measuring process: N idle one-row observations of
                               NAME (Ripple or GRDB), prints the resident bytes per observation
            workloads:
            """)
        for workload in WorkloadID.allCases { print("  \(workload.rawValue)  \(workload.summary)") }
        exit(0)
    default:
        fatalError("unknown argument \(argument); see --help")
    }
}

let workloads = WorkloadID.allCases.filter { workload in
    filters.isEmpty || filters.contains { workload.rawValue.lowercased().hasPrefix($0.lowercased()) }
}
let allSubjects: [any BenchSubject] = [RawSubject(), RippleSubject(), GRDBSubject()]
let subjects = allSubjects.filter { subjectNames.isEmpty || subjectNames.contains($0.name.lowercased()) }
let runner = Runner(subjects: subjects, workloads: workloads, sizes: sizes, rounds: rounds)
try runner.run()
