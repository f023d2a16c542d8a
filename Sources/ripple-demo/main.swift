import Dispatch
import Foundation
import Ripple

// ripple-demo: a live leaderboard. Writers change scores in a database pool while a value
// observation redraws the best players after each change, with the diff of the change.
//
//   swift run ripple-demo [--duration SECONDS] [--writers COUNT] [--no-clear]

struct Options {
    var duration = 4.0
    var writers = 2
    var clearsScreen = true

    init(arguments: [String]) throws {
        var arguments = arguments.makeIterator()
        while let argument = arguments.next() {
            switch argument {
            case "--duration":
                guard let value = arguments.next().flatMap(Double.init), value > 0 else { throw UsageError() }
                duration = value
            case "--writers":
                guard let value = arguments.next().flatMap(Int.init), value > 0, value <= 16 else { throw UsageError() }
                writers = value
            case "--no-clear":
                clearsScreen = false
            default:
                throw UsageError()
            }
        }
    }

    struct UsageError: Error, CustomStringConvertible {
        var description: String { "usage: ripple-demo [--duration SECONDS] [--writers COUNT (1-16)] [--no-clear]" }
    }
}

struct Player: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    var id: Int64?
    var name: String
    var score: Int
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

let options: Options
do {
    options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    print(error)
    exit(2)
}

let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("ripple-demo-\(UUID().uuidString)", isDirectory: true)
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let dbPool = try DatabasePool(path: directory.appendingPathComponent("demo.sqlite").path)

// The schema and the players, in one transaction; a savepoint rolled back on the way.
try dbPool.write { db in
    try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL)")
    for name in ["Arthur", "Barbara", "Craig", "David", "Elena", "Farid", "Gwen", "Hiro"] {
        var player = Player(id: nil, name: name, score: 100)
        try player.insert(db)
    }
    try db.inSavepoint {
        try Player.deleteAll(db)
        return .rollback  // nobody is deleted after all
    }
}

let leaderboard = Player.order(Column("score").desc, Column("name")).limit(5)
let everybody = Player.order(Column("id"))

/// Draws the leaderboard after each fresh value, with what changed.
actor Screen {
    let clearsScreen: Bool
    var frames = 0
    var scanner: PrimaryKeyDiffScanner<Player>

    init(clearsScreen: Bool, scanner: PrimaryKeyDiffScanner<Player>) {
        self.clearsScreen = clearsScreen
        self.scanner = scanner
    }

    func draw(best: [Player], rows: [Row], commits: Int) {
        frames += 1
        scanner = scanner.diffed(from: rows)
        let diff = scanner.diff
        var text = clearsScreen ? "\u{1B}[2J\u{1B}[H" : "\n"
        text += "Ripple live leaderboard: frame \(frames), \(commits) commits so far\n\n"
        for (rank, player) in best.enumerated() {
            let bar = String(repeating: "#", count: max(0, min(40, player.score / 10)))
            text +=
                "  \(rank + 1). \(player.name.padding(toLength: 8, withPad: " ", startingAt: 0)) \(String(player.score).padding(toLength: 5, withPad: " ", startingAt: 0)) \(bar)\n"
        }
        let updated = diff.updated.map { "\($0.name) \($0.score)" }.joined(separator: ", ")
        text += "\n  changed: \(updated.isEmpty ? "-" : updated)"
        if !diff.inserted.isEmpty { text += " | new: \(diff.inserted.map(\.name).joined(separator: ", "))" }
        if !diff.deleted.isEmpty { text += " | gone: \(diff.deleted.map(\.name).joined(separator: ", "))" }
        print(text)
    }
}

let commits = Counter()
final class Counter: Sendable {
    private let value = LockedState(0)
    func increment() { value.withLock { $0 += 1 } }
    var current: Int { value.withLock { $0 } }
}

let scanner = try dbPool.read { db in try PrimaryKeyDiffScanner(database: db, request: everybody, initialRecords: []) }
let screen = Screen(clearsScreen: options.clearsScreen, scanner: scanner)

// One observation, one snapshot: the best players and every row for the diff.
let observation = ValueObservation.tracking(region: Player.all()) { db in
    (try leaderboard.fetchAll(db), try Row.fetchAll(db, everybody))
}

let observer = Task {
    for try await (best, rows) in observation.values(in: dbPool) {
        await screen.draw(best: best, rows: rows, commits: commits.current)
    }
}

// Writers: each one gives points to random players, in small transactions.
let deadline = Date().addingTimeInterval(options.duration)
let writers = (0..<options.writers).map { writer in
    Task.detached {
        var generator = SystemRandomNumberGenerator()
        while Date() < deadline {
            let id = Int64.random(in: 1...8, using: &generator)
            let points = Int.random(in: -20...40, using: &generator)
            try await dbPool.write { db in
                try db.execute(sql: "UPDATE player SET score = MAX(0, score + ?) WHERE id = ?", arguments: [points, id])
            }
            commits.increment()
            try await Task.sleep(nanoseconds: UInt64.random(in: 50_000_000...250_000_000, using: &generator))
        }
    }
}
for writer in writers { try await writer.value }
try await Task.sleep(nanoseconds: 200_000_000)
observer.cancel()

let final = try dbPool.read { db in try leaderboard.fetchAll(db) }
print(
    "\nDone: \(commits.current) commits by \(options.writers) writers in \(options.duration)s. Winner: \(final.first?.name ?? "-") with \(final.first?.score ?? 0) points."
)
