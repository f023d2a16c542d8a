import Ripple
import XCTest

/// FTS3 and FTS5 patterns: what they accept, what they make of text, and the requests
/// that match them.
final class FullTextPatternTests: XCTestCase {
    private struct Book: FetchableRecord, PersistableRecord, Codable, Equatable {
        static let databaseTableName = "book"
        var title: String
    }

    func testRawPatternsAreCheckedBySQLite() throws {
        XCTAssertEqual(try FTS3Pattern(rawPattern: "moby AND dick").rawPattern, "moby AND dick")
        XCTAssertThrowsError(try FTS3Pattern(rawPattern: "\"")) { error in
            let error = error as? DatabaseError
            XCTAssertEqual(error?.resultCode, .SQLITE_ERROR)
            XCTAssertNil(error?.sql, "the SQL of the scratch database says nothing to the caller")
        }
        XCTAssertThrowsError(try FTS5Pattern(rawPattern: "AND"))
        XCTAssertThrowsError(try FTS5Pattern(rawPattern: "title:moby"))
        XCTAssertEqual(try FTS5Pattern(rawPattern: "title:moby", allowedColumns: ["title"]).rawPattern, "title:moby")
    }

    func testPatternsFromText() {
        XCTAssertEqual(FTS3Pattern(matchingAnyTokenIn: "Moby, dick!")?.rawPattern, "moby OR dick")
        XCTAssertEqual(FTS3Pattern(matchingAllTokensIn: "Moby dick")?.rawPattern, "moby dick")
        XCTAssertEqual(FTS3Pattern(matchingAllPrefixesIn: "mob di")?.rawPattern, "mob* di*")
        XCTAssertEqual(FTS3Pattern(matchingPhrase: "Moby  Dick")?.rawPattern, "\"moby dick\"")
        XCTAssertNil(FTS3Pattern(matchingAllTokensIn: " ,;! "))
        XCTAssertEqual(FTS5Pattern(matchingAnyTokenIn: "Moby Élan")?.rawPattern, "moby OR Élan")
        XCTAssertEqual(FTS5Pattern(matchingPrefixPhrase: "moby dick")?.rawPattern, "^\"moby dick\"")
        XCTAssertNil(FTS5Pattern(matchingPhrase: ""))
    }

    func testMatchingRequests() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(virtualTable: "book", using: FTS5()) { t in t.column("title") }
            try Book(title: "Moby Dick").insert(db)
            try Book(title: "Ulysses").insert(db)
            let pattern = FTS5Pattern(matchingAllPrefixesIn: "mob")
            XCTAssertEqual(try Book.matching(pattern).fetchAll(db), [Book(title: "Moby Dick")])
            XCTAssertEqual(try Book.filter(Column("title").match(pattern!)).fetchCount(db), 1)
            XCTAssertEqual(try Book.matching(FTS5Pattern?.none).fetchCount(db), 0, "nil pattern matches nothing")
            XCTAssertEqual(try Table("book").matching(FTS5Pattern(matchingAnyTokenIn: "ulysses dick")).order(Column.rank).fetchCount(db), 2)
            XCTAssertEqual(try db.makeFTS5Pattern(rawPattern: "title:ulysses", forTable: "book").rawPattern, "title:ulysses")

            try db.create(virtualTable: "book3", using: FTS4()) { t in t.column("title") }
            try db.execute(sql: "INSERT INTO book3(title) VALUES ('Moby Dick')")
            XCTAssertEqual(try Table("book3").matching(FTS3Pattern(matchingPhrase: "moby dick")).fetchCount(db), 1)
            XCTAssertEqual(try Table("book3").filter(Column("title").match(FTS3Pattern?.none)).fetchCount(db), 0)
        }
    }

    func testTokenize() throws {
        XCTAssertEqual(try FTS3.tokenize("SQLite, databases!"), ["sqlite", "databases"])
        XCTAssertEqual(try FTS3.tokenize("SQLite databases", withTokenizer: .porter), ["sqlite", "databas"])
        XCTAssertEqual(try FTS3.tokenize("Élan", withTokenizer: .unicode61()), ["elan"])
        XCTAssertEqual(try FTS3.tokenize("Élan", withTokenizer: .unicode61(diacritics: .keep)), ["élan"])
    }
}
