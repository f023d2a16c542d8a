import Foundation
import RippleOracle

// Runs Ripple's observation oracle with fresh random seeds for as long as asked, and
// prints the seed of each failure so that it replays:
//
//     swift run -c release ripple-oracle --seconds 1800
//     swift run -c release ripple-oracle --seed 42 --writer pool --transactions 300
//     swift run -c release ripple-oracle --seconds 600 --observations many
//
// Without --observations, runs alternate between a few observations and hundreds.

var seconds: Double = 10
var fixedSeed: UInt64?
var writers = OracleWriterKind.allCases
var transactions = 300
var observationScales = OracleObservations.allCases
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--seconds": seconds = Double(arguments.next() ?? "") ?? seconds
    case "--seed": fixedSeed = UInt64(arguments.next() ?? "")
    case "--writer": writers = [OracleWriterKind(rawValue: arguments.next() ?? "") ?? .queue]
    case "--transactions": transactions = Int(arguments.next() ?? "") ?? transactions
    case "--observations": observationScales = [OracleObservations(rawValue: arguments.next() ?? "") ?? .few]
    default:
        print("usage: ripple-oracle [--seconds N] [--seed S] [--writer queue|pool] [--transactions N] [--observations few|many]")
        exit(2)
    }
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-oracle-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

var totals = (runs: 0, transactions: 0, statements: 0, checks: 0, failures: 0)
let start = Date()
var generator = SystemRandomNumberGenerator()
repeat {
    let seed = fixedSeed ?? UInt64.random(in: 0...UInt64(Int64.max), using: &generator)
    let observations = observationScales[Int(seed % UInt64(observationScales.count))]
    for writer in writers {
        let report = Oracle.run(seed: seed, writerKind: writer, observations: observations, transactions: transactions, directory: directory)
        totals.runs += 1
        totals.transactions += report.transactions
        totals.statements += report.statements
        totals.checks += report.checks
        if report.failures.isEmpty {
            if fixedSeed != nil { print(report) }
        } else {
            totals.failures += 1
            print("FAILURE \(report) (observations: \(observations))")
            for failure in report.failures { print(failure) }
        }
    }
} while fixedSeed == nil && Date().timeIntervalSince(start) < seconds

let elapsed = Int(Date().timeIntervalSince(start))
print(
    "\(totals.runs) runs in \(elapsed) s: \(totals.transactions) transactions, \(totals.statements) statements, \(totals.checks) checks, \(totals.failures) failed run(s)"
)
exit(totals.failures == 0 ? 0 : 1)
