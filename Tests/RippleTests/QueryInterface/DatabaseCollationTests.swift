import XCTest

@testable import Ripple

/// Custom collations (`DatabaseCollation`), and the five that every connection has.
final class DatabaseCollationTests: XCTestCase {
    func testBuiltInCollationsOrderStringsAsFoundationDoes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE item (name TEXT); INSERT INTO item VALUES ('b'), ('A'), ('a'), ('B'), ('file10'), ('file9')")
        }
        let names = try dbQueue.read { db in
            try String.fetchAll(
                db,
                Table<Row>("item").select(Column("name"), as: String.self)
                    .order(Column("name").collating(.localizedCaseInsensitiveCompare), Column("name")))
        }
        // Case-insensitive: "a" and "A" together, then "b" and "B" (ties ordered by BINARY).
        XCTAssertEqual(Array(names.prefix(4)), ["A", "a", "B", "b"])
        let standard = try dbQueue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM item WHERE name LIKE 'file%' ORDER BY name COLLATE localizedStandardCompare")
        }
        XCTAssertEqual(standard, ["file9", "file10"], "numbers ordered by value")
        let unicode = try dbQueue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY name COLLATE unicodeCompare")
        }
        XCTAssertEqual(unicode, ["A", "B", "a", "b", "file10", "file9"])
    }

    func testBuiltInCollationsHaveGRDBsNamesAndTheEarlierOnes() throws {
        XCTAssertEqual(
            ([.unicodeCompare, .caseInsensitiveCompare, .localizedCaseInsensitiveCompare, .localizedCompare, .localizedStandardCompare]
                as [DatabaseCollation]).map(\.name),
            [
                "swiftCompare", "swiftCaseInsensitiveCompare", "swiftLocalizedCaseInsensitiveCompare", "swiftLocalizedCompare",
                "swiftLocalizedStandardCompare",
            ])
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            // A GRDB database's schema names the collations GRDB's way; an earlier Ripple's, its own.
            try db.execute(
                sql: """
                    CREATE TABLE grdbItem (name TEXT COLLATE swiftCaseInsensitiveCompare);
                    CREATE TABLE rippleItem (name TEXT COLLATE caseInsensitiveCompare);
                    INSERT INTO grdbItem VALUES ('a'), ('B'), ('A');
                    INSERT INTO rippleItem VALUES ('a'), ('B'), ('A');
                    """)
            for table in ["grdbItem", "rippleItem"] {
                XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE name = 'A'"), 2, table)
            }
            try db.create(table: "made") { t in t.column("name", .text).collate(.localizedCompare) }
            XCTAssertTrue(try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'made'")!.contains("swiftLocalizedCompare"))
        }
    }

    func testCustomCollationInAColumnDefinitionAndComparisons() throws {
        let reversed = DatabaseCollation("reversed") { lhs, rhs in
            lhs == rhs ? .orderedSame : (lhs < rhs ? .orderedDescending : .orderedAscending)
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            db.add(collation: reversed)
            try db.create(table: "item") { t in t.column("name", .text).collate(reversed) }
            try db.execute(sql: "INSERT INTO item VALUES ('a'), ('c'), ('b')")
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY name"), ["c", "b", "a"])
            db.remove(collation: reversed)
            // A statement that needs a removed collation fails with a clear error.
            XCTAssertThrowsError(try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY name COLLATE reversed")) { error in
                XCTAssertTrue("\(error)".contains("reversed"), "\(error)")
            }
        }
    }
}
