// Compiled twice, in Swift 6 (GRDBSpellingSwift6Tests) and Swift 5 (GRDBSpellingSwift5Tests,
// through a link to this file) language modes: full-text search written the way GRDB's
// documentation and test suite write it.
import Ripple
import XCTest

private struct Book {
    var id: Int64?
    var title: String
}

extension Book: FetchableRecord {
    init(row: Row) {
        id = row[.rowID]
        title = row["title"]
    }
}

extension Book: MutablePersistableRecord {
    static let databaseTableName = "books"
    static var databaseSelection: [any SQLSelectable] { [.allColumns, .rowID] }

    func encode(to container: inout PersistenceContainer) {
        container[.rowID] = id
        container["title"] = title
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

private final class LatinAsciiTokenizer: FTS5WrapperTokenizer {
    static let name = "latinascii"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.unicode61())
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        try tokenCallback(token.uppercased(), flags)
    }
}

final class GRDBSpellingFTSTests: XCTestCase {
    func testFTS5Tokenizers() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            db.add(tokenizer: LatinAsciiTokenizer.self)
            let tokenizer = try db.makeTokenizer(LatinAsciiTokenizer.tokenizerDescriptor())
            XCTAssertEqual(try tokenizer.tokenize(query: "a b").map(\.token), ["A", "B"])
            XCTAssertEqual(try tokenizer.tokenize(document: "a").map(\.flags), [[]])
            let unicode61 = try db.makeTokenizer(.unicode61(diacritics: .keep))
            XCTAssertEqual(try unicode61.tokenize(document: "Élan").map(\.token), ["élan"])
            try db.create(virtualTable: "documents", using: FTS5()) { t in
                t.tokenizer = LatinAsciiTokenizer.tokenizerDescriptor()
                t.column("content")
            }
        }
    }

    func testFTS5TableAndPatterns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(virtualTable: "books", options: .ifNotExists, using: FTS5()) { t in
                t.tokenizer = .porter(wrapping: .unicode61(diacritics: .keep))
                t.prefixes = [2, 4]
                t.column("title")
                t.column("extra").notIndexed()
            }
            var book = Book(id: nil, title: "Moby Dick")
            try book.insert(db)
            XCTAssertEqual(book.id, 1)
            let pattern = FTS5Pattern(matchingAllPrefixesIn: "mob")
            let books = try Book.matching(pattern).order(Column.rank).fetchAll(db)
            XCTAssertEqual(books.map(\.title), ["Moby Dick"])
            XCTAssertEqual(books.map(\.id), [1])
            XCTAssertEqual(try Book.filter(Column("title").match(FTS5Pattern(rawPattern: "dick"))).fetchCount(db), 1)
            XCTAssertEqual(try db.makeFTS5Pattern(rawPattern: "title: moby", forTable: "books").rawPattern, "title: moby")
        }
    }

    func testFTS4SynchronizedTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "documents") { t in
                t.primaryKey("id", .integer)
                t.column("content", .text)
            }
            try db.execute(sql: "INSERT INTO documents (content) VALUES (?)", arguments: ["foo"])
            try db.create(virtualTable: "ft_documents", using: FTS4()) { t in
                t.synchronize(withTable: "documents")
                t.tokenizer = .unicode61(diacritics: .remove, separators: ["-"])
                t.column("content")
            }
            XCTAssertEqual(try Table("ft_documents").matching(FTS3Pattern(matchingAnyTokenIn: "foo bar")).fetchCount(db), 1)
            try db.dropFTS4SynchronizationTriggers(forTable: "ft_documents")
        }
    }

    func testFTS3AndTokenize() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(virtualTable: "books", ifNotExists: true, using: FTS3()) { t in
                t.tokenizer = .porter
                t.column("title")
            }
            try db.create(virtualTable: "vocab", using: "fts4aux(books)")
        }
        XCTAssertEqual(try FTS3.tokenize("Moby Dick", withTokenizer: .simple), ["moby", "dick"])
        XCTAssertNotNil(FTS3Pattern(matchingPhrase: "moby dick"))
    }
}
