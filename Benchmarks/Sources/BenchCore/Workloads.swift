import Foundation

/// The sizes of the workloads; `--quick` divides them.
public struct Sizes: Sendable {
    public var w1Inserts = 200_000
    public var w2Rows = 200_000
    public var w3Observations = 1000
    public var w3Transactions = 1000
    public var w4Transactions = 5000
    public var w5Transactions = 10_000
    public var w6Observations = 10_000
    public var w6Transactions = 1000
    public var w7Transactions = 500
    public var w6sObservations = 1000
    /// How long W6s's write transaction lasts, and when its observations start.
    public var w6sWriteSeconds = 2.0
    public var w6sDelaySeconds = 0.1
    public var w8Rows = 50_000
    public var w8Transactions = 1000
    public var w8Observations = 20
    public var w9Authors = 1000
    public var w9BooksPerAuthor = 10
    public init() {}

    public static let quick: Sizes = {
        var sizes = Sizes()
        sizes.w1Inserts /= 10
        sizes.w2Rows /= 10
        sizes.w3Observations /= 5
        sizes.w3Transactions /= 5
        sizes.w4Transactions /= 5
        sizes.w5Transactions /= 5
        sizes.w6Observations /= 5
        sizes.w6Transactions /= 5
        sizes.w7Transactions /= 5
        sizes.w6sObservations /= 5
        sizes.w6sWriteSeconds /= 8
        sizes.w8Rows /= 10
        sizes.w8Transactions /= 10
        sizes.w9Authors /= 10
        return sizes
    }()
}

/// One measurement: the timed seconds, and counters some workloads report.
public struct Sample: Sendable {
    public var seconds: Double
    public var counters: [String: Double]
    public init(seconds: Double, counters: [String: Double] = [:]) {
        self.seconds = seconds
        self.counters = counters
    }
}

/// A subject's implementation of one workload: sets up (untimed), measures, cleans up.
public typealias WorkloadRun = @Sendable (_ directory: URL, _ sizes: Sizes) throws -> Sample

/// A thing measured: raw SQLite, Ripple, or GRDB.
public protocol BenchSubject: Sendable {
    var name: String { get }
    /// The implementation of workload `id`, or nil when the subject does not provide it.
    func run(_ id: WorkloadID) -> WorkloadRun?
}

/// The workloads of the suite.
public enum WorkloadID: String, CaseIterable, Sendable {
    case w1a = "W1a", w1b = "W1b", w1c = "W1c", w1d = "W1d"
    case w2a = "W2a", w2b = "W2b", w2b1 = "W2b1", w2c = "W2c", w2a2 = "W2a2"
    case w3 = "W3", w4 = "W4"
    case w5b = "W5b", w5c = "W5c", w5d = "W5d"
    case w6 = "W6", w6one = "W6one"
    case w6r = "W6r", w6rone = "W6rone", w6m = "W6m", w6s = "W6s"
    case w7 = "W7"
    case w8 = "W8"
    case w9a = "W9a", w9b = "W9b"

    public var summary: String {
        switch self {
        case .w1a: return "200k inserts, 1 transaction, reused statement, no observer"
        case .w1b: return "W1a + one TransactionObserver of every event"
        case .w1c: return "W1a + one DatabaseRegionObservation on the table"
        case .w1d: return "W1a + 100 ValueObservations of other tables"
        case .w2a: return "200k rows x 6 columns, row cursor read by index"
        case .w2b: return "200k records via init(row:), columns by name"
        case .w2b1: return "W2b, Ripple's init(row:) assigning each field (`id = row[\"id\"]`)"
        case .w2c: return "200k Decodable records"
        case .w2a2: return "Row.fetchAll of 200k rows x 6 columns (raw: an array of 6-field structs)"
        case .w3: return "1000 row observations, 1000 one-row update transactions"
        case .w4: return "1 ValueObservation on a pool, 5000 one-row writes, latency"
        case .w5b: return "10k single-insert transactions, cached statement, 1 observer"
        case .w5c: return "10k single-insert transactions, cached statement, no observer"
        case .w5d: return "W5b with observesExternalChanges = false, paired with W5b in each sample (Ripple only)"
        case .w7: return "another process commits 500 one-row transactions; latency to the observer's value"
        case .w6: return "10,000 row observations, 1000 one-row update transactions"
        case .w6one: return "W6 with 1 observation, 1000 updates of its row"
        case .w6r: return "10,000 one-row DatabaseRegionObservations, 1000 one-row update transactions"
        case .w6rone: return "W6r with 1 region observation, 1000 updates of its row"
        case .w6m: return "10,000 idle one-row ValueObservations, resident memory (child process)"
        case .w6s: return "1000 pool ValueObservations started during a 2 s write, until their first values"
        case .w8: return "50k rows imported in 1000 transactions, 20 ValueObservations of the table"
        case .w9a: return "1000 authors including(all: books), 10,000 books, nested Decodable records"
        case .w9b: return "10,000 books including(required: author), nested Decodable records"
        }
    }

    /// How many operations a sample performs, for per-operation figures.
    public func operations(_ sizes: Sizes) -> Int {
        switch self {
        case .w1a, .w1b, .w1c, .w1d: return sizes.w1Inserts
        case .w2a, .w2b, .w2b1, .w2c, .w2a2: return sizes.w2Rows
        case .w3: return sizes.w3Transactions
        case .w4: return sizes.w4Transactions
        case .w5b, .w5c, .w5d: return sizes.w5Transactions
        case .w6, .w6one, .w6r, .w6rone: return sizes.w6Transactions
        case .w6m: return sizes.w6Observations
        case .w6s: return sizes.w6sObservations
        case .w7: return sizes.w7Transactions
        case .w8: return sizes.w8Rows
        case .w9a: return sizes.w9Authors
        case .w9b: return sizes.w9Authors * sizes.w9BooksPerAuthor
        }
    }

    /// The raw workload a ratio against raw SQLite compares with: observers cost nothing
    /// in raw SQLite, so W1b-d compare with W1a, and W5b with W5c.
    public var rawBaseline: WorkloadID? {
        switch self {
        case .w1a, .w1b, .w1c, .w1d: return .w1a
        case .w2a, .w2b, .w2b1, .w2c, .w2a2, .w9a, .w9b: return self
        case .w3, .w4, .w6, .w6one, .w6r, .w6rone, .w6m, .w6s, .w7, .w8: return nil
        case .w5b, .w5c, .w5d: return .w5c
        }
    }
}

/// The data every subject writes, made before timing starts.
public struct ItemData: Sendable {
    public let a: [Int64]
    public let b: [Double]
    public let c: [String]
    public let d: [Int64]
    public let e: [String]
    public var count: Int { a.count }

    public init(count: Int) {
        a = (0..<count).map { Int64($0) }
        b = (0..<count).map { Double($0) * 0.5 }
        c = (0..<count).map { "name-\($0)" }
        d = (0..<count).map { Int64($0 % 100) }
        e = (0..<count).map { $0 % 2 == 0 ? "even" : "odd" }
    }
}

/// The schema of the item table every workload uses.
public let itemSchema = """
    CREATE TABLE item (id INTEGER PRIMARY KEY, a INTEGER NOT NULL, b REAL NOT NULL, \
    c TEXT NOT NULL, d INTEGER NOT NULL, e TEXT NOT NULL)
    """

public let insertItemSQL = "INSERT INTO item (a, b, c, d, e) VALUES (?, ?, ?, ?, ?)"

/// The struct the record workloads build.
public struct Item: Sendable {
    public var id: Int64
    public var a: Int64
    public var b: Double
    public var c: String
    public var d: Int64
    public var e: String
    public init(id: Int64, a: Int64, b: Double, c: String, d: Int64, e: String) {
        self.id = id; self.a = a; self.b = b; self.c = c; self.d = d; self.e = e
    }
}

/// The path of a database file in a new folder `name` of a sample's directory (W8 makes
/// two databases in each sample).
public func databasePath(in directory: URL, folder name: String) throws -> String {
    let folder = directory.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent("db.sqlite").path
}

/// Seconds taken by `block`. Never inlined, so that callgrind's
/// `--toggle-collect='$s9BenchCore7measure*'` finds it.
@inline(never)
public func measure(_ block: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try block()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// Now, in seconds, for latency measurements.
@inline(__always)
public func now() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e9
}

/// A deterministic generator, so that every subject updates the same rows.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The rows W3 updates, in order: the same for every subject.
public func w3UpdatedRows(observations: Int, transactions: Int) -> [Int64] {
    var generator = SplitMix64(seed: 42)
    return (0..<transactions).map { _ in Int64.random(in: 1...Int64(observations), using: &generator) }
}

/// The value W6s's long write transaction sets in every row.
public let w6sCommittedValue: Int64 = 2_000_000

/// Keeps a value alive and opaque to the optimizer.
@inline(never)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// A thread-safe counter and value store for observation workloads.
public final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    public init() {}
    public func increment() { lock.lock(); count += 1; lock.unlock() }
    public var value: Int { lock.lock(); defer { lock.unlock() }; return count }
    public func reset() { lock.lock(); count = 0; lock.unlock() }
}

/// Percentile of sorted values.
public func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let index = min(sorted.count - 1, max(0, Int((p * Double(sorted.count - 1)).rounded())))
    return sorted[index]
}

/// W9: authors and their books, for the association workloads.
public enum AuthorsAndBooks {
    public static let schema = """
        CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT NOT NULL);
        CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL REFERENCES author(id), \
        title TEXT NOT NULL, year INTEGER NOT NULL);
        CREATE INDEX book_on_authorId ON book(authorId);
        """

    /// The SQL that fills the tables, the same for every subject (untimed).
    public static func populationSQL(_ sizes: Sizes) -> String {
        var sql = "BEGIN;"
        for author in 1...sizes.w9Authors {
            sql += "INSERT INTO author VALUES (\(author), 'author \(author)', 'country \(author % 50)');"
            for index in 0..<sizes.w9BooksPerAuthor {
                let book = (author - 1) * sizes.w9BooksPerAuthor + index + 1
                sql += "INSERT INTO book VALUES (\(book), \(author), 'title \(book)', \(1900 + book % 120));"
            }
        }
        return sql + "COMMIT;"
    }
}

/// The structs raw SQLite builds in W9 (Ripple and GRDB decode records of the same shape).
public struct RawAuthor: Sendable {
    public var id: Int64, name: String, country: String
    public init(id: Int64, name: String, country: String) { self.id = id; self.name = name; self.country = country }
}

public struct RawBook: Sendable {
    public var id: Int64, authorId: Int64, title: String, year: Int64
    public init(id: Int64, authorId: Int64, title: String, year: Int64) {
        self.id = id; self.authorId = authorId; self.title = title; self.year = year
    }
}
