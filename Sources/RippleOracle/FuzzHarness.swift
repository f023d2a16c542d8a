import Foundation
import Ripple

/// One input of the fuzzer (`Scripts/fuzz`): statement preparation, argument binding and
/// row decoding on bytes it chose. Whatever the input, Ripple must throw or succeed, never
/// crash; inputs that crashed it once are replayed by `swift test` (`FuzzRegressionTests`).
///
/// The input is SQL, then a NUL byte, then arguments: each argument is a tag byte (0 null,
/// 1 integer, 2 double, 3 text, 4 blob, 5 bool) and, for the others than null and bool, a
/// length byte and that many bytes.
public enum FuzzHarness {
    struct Record: Decodable, FetchableRecord {
        var a: Int?
        var b: String?
        var c: Double?
        var d: Data?
    }

    private static let queue = LockedState<DatabaseQueue?>(nil)

    /// Runs one input.
    public static func run(_ bytes: [UInt8]) {
        let split = bytes.firstIndex(of: 0) ?? bytes.endIndex
        let sql = String(decoding: bytes[..<split], as: UTF8.self)
        // Nothing that reaches outside of the database: files, extensions.
        let lowercased = sql.lowercased()
        for word in ["attach", "vacuum", "load_extension", "pragma", "readfile", "writefile"] where lowercased.contains(word) {
            return
        }
        let arguments = StatementArguments(decodeArguments(bytes[min(split + 1, bytes.endIndex)...]))
        do {
            let dbQueue = try database()
            try dbQueue.inDatabase { db in
                defer { if db.isInsideTransaction { try? db.rollback() } }
                try db.beginTransaction()
                let statement = try db.makeStatement(sql: sql)
                let rows = try Row.fetchAll(statement, arguments: arguments)
                for row in rows {
                    _ = row.description
                    _ = try? Record(row: row)
                    for index in 0..<row.count {
                        _ = try? row.decode(Int.self, atIndex: index)
                        _ = try? row.decode(String.self, atIndex: index)
                        _ = try? row.decode(Data.self, atIndex: index)
                        _ = try? row.decode(Date.self, atIndex: index)
                    }
                }
                _ = try? Record.fetchAll(statement, arguments: arguments)
                let cursor = try Row.fetchCursor(statement, arguments: arguments)
                while let row = try cursor.next() { _ = try? Record(row: row) }
            }
        } catch {
            // Thrown errors are the expected answer to bad input.
        }
    }

    private static func database() throws -> DatabaseQueue {
        try queue.withLock { queue in
            if let queue { return queue }
            let dbQueue = try makeDatabase()
            queue = dbQueue
            return dbQueue
        }
    }

    private static func makeDatabase() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT UNIQUE, c REAL, d BLOB);
                    INSERT INTO t VALUES (1, 'one', 1.5, x'00ff'), (2, NULL, NULL, NULL);
                    CREATE VIEW v AS SELECT a, b FROM t;
                    """)
        }
        return dbQueue
    }

    private static func decodeArguments(_ bytes: ArraySlice<UInt8>) -> [(any DatabaseValueConvertible)?] {
        var values: [(any DatabaseValueConvertible)?] = []
        var index = bytes.startIndex
        func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard bytes.endIndex - index >= count else { return nil }
            defer { index += count }
            return bytes[index..<(index + count)]
        }
        while let tag = take(1)?.first {
            switch tag % 6 {
            case 0: values.append(nil)
            case 5: values.append(tag > 128)
            default:
                guard let length = take(1)?.first, let payload = take(Int(length)) else { return values }
                switch tag % 6 {
                case 1: values.append(payload.reduce(Int64(0)) { $0 &* 256 &+ Int64($1) })
                case 2: values.append(Double(bitPattern: payload.reduce(UInt64(0)) { $0 &* 256 &+ UInt64($1) }))
                case 3: values.append(String(decoding: payload, as: UTF8.self))
                default: values.append(Data(payload))
                }
            }
        }
        return values
    }
}
