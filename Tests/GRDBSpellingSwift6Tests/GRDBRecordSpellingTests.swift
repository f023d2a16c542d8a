// Compiled twice, in Swift 6 and Swift 5 (through a link) language modes: finding, saving
// and fetching records as GRDB's documentation and tests write it.
import Foundation
import Ripple
import XCTest

private struct Player: Codable, FetchableRecord, PersistableRecord, Equatable, Identifiable {
    var id: Int64
    var name: String
}

final class GRDBRecordSpellingTests: XCTestCase {
    /// `find` throws when the record is missing; `fetchOne(_:id:)` returns nil.
    func testFind() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.column("id", .integer).primaryKey()
                t.column("name", .text).notNull()
            }
            try Player(id: 1, name: "Arthur").insert(db)
        }
        try dbQueue.read { db in
            XCTAssertEqual(try Player.find(db, key: 1), Player(id: 1, name: "Arthur"))
            XCTAssertEqual(try Player.find(db, id: 1), Player(id: 1, name: "Arthur"))
            XCTAssertEqual(try Player.find(db, key: ["id": 1]), Player(id: 1, name: "Arthur"))
            XCTAssertNil(try Player.fetchOne(db, id: 2))
            XCTAssertThrowsError(try Player.find(db, id: 2)) { error in
                guard case RecordError.recordNotFound(let table, let key)? = error as? RecordError else {
                    return XCTFail("\(error)")
                }
                XCTAssertEqual(table, "player")
                XCTAssertEqual(key, ["id": 2.databaseValue])
            }
        }
    }

    /// `init(row:)` with plain subscripts, by name, index and column, as GRDB apps write it;
    /// a bad value makes the fetch throw.
    func testInitRowWithPlainSubscripts() throws {
        struct Book: FetchableRecord {
            enum Columns: String, ColumnExpression { case title }
            var id: Int64
            var title: String
            var pages: Int?
            init(row: Row) {
                id = row[0]
                title = row[Columns.title]
                pages = row["pages"]
            }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT, pages INT)")
            try db.execute(sql: "INSERT INTO book VALUES (1, 'Dune', NULL)")
            let books = try Book.fetchAll(db, sql: "SELECT * FROM book")
            XCTAssertEqual(books.map(\.title), ["Dune"])
            XCTAssertEqual(books.map(\.pages), [nil])
            let row = try Row.fetchOne(db, sql: "SELECT * FROM book")!
            let title: String = row["title"]
            XCTAssertEqual(title, "Dune")
            XCTAssertEqual(row["title"] as? String, "Dune")
            try db.execute(sql: "UPDATE book SET title = NULL")
            XCTAssertThrowsError(try Book.fetchAll(db, sql: "SELECT * FROM book")) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .SQLITE_MISMATCH)
            }
        }
    }

    /// The `id:` spellings of Identifiable records.
    func testIdentifiableSpellings() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.column("id", .integer).primaryKey()
                t.column("name", .text).notNull()
            }
            for (id, name) in [(1, "A"), (2, "B"), (3, "C")] { try Player(id: Int64(id), name: name).insert(db) }
            XCTAssertEqual(try Player.filter(id: 2).fetchOne(db)?.name, "B")
            XCTAssertEqual(try Player.filter(ids: [1, 3]).order(Column("id")).fetchAll(db).map(\.name), ["A", "C"])
            XCTAssertEqual(try Player.all().filter(ids: [3]).fetchAll(db).map(\.name), ["C"])
            XCTAssertEqual(try Player.fetchAll(db, ids: [2, 3]).count, 2)
            XCTAssertTrue(try Player.exists(db, id: 1))
            XCTAssertTrue(try Player.deleteOne(db, id: 1))
            XCTAssertFalse(try Player.exists(db, id: 1))
            XCTAssertEqual(try Player.deleteAll(db, ids: [2, 3, 4]), 2)
        }
    }

    /// A statement made from an SQL literal runs with its interpolated values.
    func testMakeStatementFromALiteral() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (name TEXT)")
            let name = "Gerhard Richter"
            let statement = try db.makeStatement(literal: "INSERT INTO t (name) VALUES (\(name))")
            XCTAssertEqual(statement.sql, "INSERT INTO t (name) VALUES (?)")
            try statement.execute()
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT name FROM t"), [name])
        }
    }

    /// `readOnly` forbids writes inside a write access; GRDB's name of the observation
    /// extent type compiles.
    func testReadOnlyAndTheExtentTypeName() throws {
        let dbQueue = try DatabaseQueue()
        let extent: Database.TransactionObservationExtent = .observerLifetime
        _ = extent
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a)")
            XCTAssertThrowsError(try db.readOnly { try db.execute(sql: "INSERT INTO t VALUES (1)") }) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .SQLITE_READONLY)
            }
            XCTAssertEqual(try db.readOnly { try Int.fetchOne(db, sql: "SELECT count(*) FROM t") }, 0)
        }
    }

    /// `DatabaseDateComponents` as GRDB's tests write it: a time stored as text, read back.
    func testDatabaseDateComponents() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            var dateComponents = DateComponents()
            dateComponents.hour = 10
            dateComponents.minute = 11
            try db.execute(sql: "CREATE TABLE dates (creationDate DATETIME)")
            try db.execute(
                sql: "INSERT INTO dates (creationDate) VALUES (?)",
                arguments: [DatabaseDateComponents(dateComponents, format: .HM)])
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT creationDate FROM dates"), "10:11")
            let read = try DatabaseDateComponents.fetchOne(db, sql: "SELECT creationDate FROM dates")!
            XCTAssertEqual(read.format, DatabaseDateComponents.Format.HM)
            XCTAssertEqual(read.dateComponents.minute, 11)
            XCTAssertTrue(read.dateComponents.second == nil)
        }
    }

    /// The dump methods as GRDB's tests call them: a class stream, leading-dot formats,
    /// default arguments, on a connection and on a reader.
    func testDump() throws {
        final class TestStream: TextOutputStream {
            var output = ""
            func write(_ string: String) { output.append(string) }
        }
        let dbQueue = try DatabaseQueue()
        let stream = TestStream()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            try Player(id: 1, name: "Arthur").insert(db)
            try db.dumpSQL("SELECT * FROM player", format: .list(header: true, separator: ","), to: stream)
            try db.dumpTables(["player"], tableHeader: .always, stableOrder: true, to: stream)
        }
        let encoder = JSONDumpFormat.defaultEncoder
        encoder.outputFormatting = .prettyPrinted
        try dbQueue.dumpRequest(Player.all(), format: .json(encoder: encoder), to: stream)
        XCTAssertEqual(
            stream.output,
            """
            id,name
            1,Arthur
            player
            1|Arthur
            [
              {
                "id":1,
                "name":"Arthur"
              }
            ]

            """)
    }

    /// A custom aggregate as GRDB's documentation and tests write it: a local type, and
    /// an `Int` argument count.
    func testDatabaseAggregate() throws {
        struct MySum: DatabaseAggregate {
            var sum: Int = 0

            mutating func step(_ dbValues: [DatabaseValue]) {
                if let int = Int.fromDatabaseValue(dbValues[0]) {
                    sum += int
                }
            }

            func finalize() -> (any DatabaseValueConvertible)? {
                return sum
            }
        }
        let argumentCount: Int = 1
        let mySum = DatabaseFunction("mySum", argumentCount: argumentCount, aggregate: MySum.self)
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            db.add(function: mySum)
            try db.execute(sql: "CREATE TABLE test(i)")
            try db.execute(sql: "INSERT INTO test(i) VALUES (1)")
            try db.execute(sql: "INSERT INTO test(i) VALUES (2)")
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT mysum(i) FROM test")!, 3)
            XCTAssertEqual(try Int.fetchOne(db, Table("test").select(mySum(Column("i")))), 3)
            db.remove(function: mySum)
        }
    }
}
