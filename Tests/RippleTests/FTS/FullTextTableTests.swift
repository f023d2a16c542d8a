import Ripple
import XCTest

/// Creating FTS3, FTS4 and FTS5 tables: the SQL of the module arguments, and tables that
/// SQLite accepts and searches.
final class FullTextTableTests: XCTestCase {
    private func createdSQL(_ create: (Database) throws -> Void) throws -> String? {
        let dbQueue = try DatabaseQueue()
        return try dbQueue.write { db in
            try create(db)
            return try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'doc'")
        }
    }

    func testFTS3Arguments() throws {
        let sql = try createdSQL { db in
            try db.create(virtualTable: "doc", using: FTS3()) { t in
                t.tokenizer = .unicode61(diacritics: .keep, separators: ["X"], tokenCharacters: Set("-."))
                t.column("title")
                t.column("body")
            }
        }
        XCTAssertEqual(
            sql, #"CREATE VIRTUAL TABLE "doc" USING fts3(title, body, tokenize=unicode61 "remove_diacritics=0" "separators=X" "tokenchars=-.")"#)
    }

    func testFTS4Arguments() throws {
        let sql = try createdSQL { db in
            try db.create(virtualTable: "doc", options: .ifNotExists, using: FTS4()) { t in
                t.tokenizer = .porter
                t.column("title")
                t.column("extra").notIndexed()
                t.column("lid").asLanguageId()
                t.matchinfo = "fts3"
                t.prefixes = [4, 2]
            }
        }
        XCTAssertEqual(
            sql,
            #"CREATE VIRTUAL TABLE "doc" USING fts4(title, extra, notindexed=extra, languageid="lid", tokenize=porter, matchinfo="fts3", prefix="2,4")"#
        )
    }

    func testFTS5Arguments() throws {
        let sql = try createdSQL { db in
            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.tokenizer = .porter(wrapping: .unicode61(diacritics: .remove))
                t.column("title")
                t.column("extra").notIndexed()
                t.prefixes = [3]
                t.detail = "column"
            }
        }
        XCTAssertEqual(
            sql,
            #"CREATE VIRTUAL TABLE "doc" USING fts5(title, extra UNINDEXED, tokenize='''porter'' ''unicode61'' ''remove_diacritics'' ''2''', prefix='3', detail=column)"#
        )
    }

    func testModuleWithoutArgumentsHasNoParentheses() throws {
        let sql = try createdSQL { db in
            try db.create(virtualTable: "doc", options: .temporary, using: FTS3())
            try db.create(virtualTable: "doc", using: FTS4())
        }
        XCTAssertEqual(sql, #"CREATE VIRTUAL TABLE "doc" USING fts4"#)
    }

    func testUnknownTokenizerThrowsAndCreatesNothing() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            XCTAssertThrowsError(
                try db.create(virtualTable: "doc", using: FTS5()) { t in
                    t.tokenizer = FTS5TokenizerDescriptor(components: ["nope"])
                    t.column("content")
                }
            ) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .SQLITE_ERROR)
            }
            XCTAssertFalse(try db.tableExists("doc"))
        }
    }

    func testFTS4SynchronizationFollowsContentTable() throws {
        try assertSynchronization(
            FTS4(),
            configure: {
                $0.synchronize(withTable: "book")
                $0.column("title")
            },
            dropTriggers: { try $0.dropFTS4SynchronizationTriggers(forTable: "ft") })
    }

    func testFTS5SynchronizationFollowsContentTable() throws {
        try assertSynchronization(
            FTS5(),
            configure: {
                $0.synchronize(withTable: "book")
                $0.column("title")
            },
            dropTriggers: { try $0.dropFTS5SynchronizationTriggers(forTable: "ft") })
    }

    private func assertSynchronization<Module: VirtualTableModule>(
        _ module: Module,
        configure: @escaping (Module.TableDefinition) -> Void,
        dropTriggers: (Database) throws -> Void
    ) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE book(id INTEGER PRIMARY KEY, title TEXT)")
            try db.execute(sql: "INSERT INTO book(title) VALUES ('Moby Dick')")
            try db.create(virtualTable: "ft", using: module) { configure($0) }
            func count(_ pattern: String) throws -> Int {
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ft WHERE ft MATCH ?", arguments: [pattern])!
            }
            XCTAssertEqual(try count("moby"), 1, "rebuilt from existing rows")
            try db.execute(sql: "UPDATE book SET title = 'Ulysses'")
            XCTAssertEqual(try count("moby"), 0)
            XCTAssertEqual(try count("ulysses"), 1)
            try db.execute(sql: "INSERT INTO book(title) VALUES ('Dubliners')")
            XCTAssertEqual(try count("dubliners"), 1)
            try db.execute(sql: "DELETE FROM book WHERE title = 'Ulysses'")
            XCTAssertEqual(try count("ulysses"), 0)
            try dropTriggers(db)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger'"), 0)
        }
    }
}
