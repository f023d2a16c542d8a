import Foundation
import Ripple
import XCTest

private struct Author: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "authors"
    static let books = hasMany(Book.self)
    static let country = belongsTo(Country.self)
    var id: Int64
    var name: String
    var countryCode: String?
}

private struct Book: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "books"
    static let author = belongsTo(Author.self)
    var id: Int64
    var authorId: Int64
    var title: String
}

private struct Country: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "countries"
    var code: String
    var name: String
}

private struct BookInfo: Decodable, FetchableRecord, Equatable {
    var book: Book
    var author: Author
    var country: Country?
}

private struct AuthorWithBooks: Decodable, FetchableRecord, Equatable {
    var author: Author
    var books: [Book]
}

private struct CountryWithAuthors: Decodable, FetchableRecord, Equatable {
    var country: Country
    var authors: [AuthorWithBooks]
}

private struct BookWithAuthorAndBooks: Decodable, FetchableRecord, Equatable {
    var book: Book
    var author: AuthorWithBooks
}

/// A record with its own `init(row:)`, decoded from the whole row inside another record.
private struct Titled: Decodable, FetchableRecord, Equatable {
    var title: String
    var readByInitRow = false

    init(from decoder: any Decoder) throws {
        title = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .title)
    }

    init(row: Row) throws {
        title = row["title"]
        readByInitRow = true
    }

    enum CodingKeys: String, CodingKey { case title }
}

private struct TitledInfo: Decodable, FetchableRecord, Equatable {
    var titled: Titled
}

/// Records decoded from the rows of a cursor, which keep their decoders and scope rows
/// from one record to the next: each record has its own row's values, checked against
/// the tables' content.
final class AssociationCursorDecodingTests: XCTestCase {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "countries") { t in
                t.primaryKey("code", .text)
                t.column("name", .text).notNull()
            }
            try db.create(table: "authors") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("countryCode", .text).references("countries")
            }
            try db.create(table: "books") { t in
                t.primaryKey("id", .integer)
                t.column("authorId", .integer).notNull().references("authors")
                t.column("title", .text).notNull()
            }
            try Country(code: "FR", name: "France").insert(db)
            try Country(code: "US", name: "United States").insert(db)
            for id in 1...7 {
                let code: String? = id % 3 == 0 ? nil : (id % 3 == 1 ? "FR" : "US")
                try Author(id: Int64(id), name: "Author \(id)", countryCode: code).insert(db)
            }
            // Books in an order that is not their authors': neighbour rows differ.
            for id in 1...40 {
                try Book(id: Int64(id), authorId: Int64((id * 5) % 7 + 1), title: "Book \(id)").insert(db)
            }
        }
        return dbQueue
    }

    /// What each book's info is, from plain fetches of each table.
    private func expectedInfos(_ db: Database) throws -> [BookInfo] {
        let authors = Dictionary(uniqueKeysWithValues: try Author.fetchAll(db).map { ($0.id, $0) })
        let countries = Dictionary(uniqueKeysWithValues: try Country.fetchAll(db).map { ($0.code, $0) })
        return try Book.order(Column("id")).fetchAll(db).map { book in
            let author = try XCTUnwrap(authors[book.authorId])
            return BookInfo(book: book, author: author, country: author.countryCode.flatMap { countries[$0] })
        }
    }

    func testEachRecordOfACursorHasItsRowsValues() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let expected = try expectedInfos(db)
            let request =
                Book
                .including(required: Book.author.including(optional: Author.country))
                .order(Column("id"))
                .asRequest(of: BookInfo.self)
            XCTAssertEqual(try request.fetchAll(db), expected)
            let cursor = try request.fetchCursor(db)
            var fetched: [BookInfo] = []
            while let info = try cursor.next() { fetched.append(info) }
            XCTAssertEqual(fetched, expected)
            // Twice, with the same statement and its lookups.
            XCTAssertEqual(try request.fetchAll(db), expected)
        }
    }

    func testScopeRowsHaveEachRecordsPrefetchedRows() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let books = try Book.order(Column("id")).fetchAll(db)
            let infos =
                try Book
                .including(required: Book.author.including(all: Author.books.order(Column("id"))))
                .order(Column("id"))
                .asRequest(of: BookWithAuthorAndBooks.self)
                .fetchAll(db)
            XCTAssertEqual(infos.map(\.book), books)
            for info in infos {
                XCTAssertEqual(info.author.author.id, info.book.authorId)
                XCTAssertEqual(info.author.books, books.filter { $0.authorId == info.book.authorId })
            }
            // The scope rows, read by hand.
            let rows = try Row.fetchAll(db, Book.including(required: Book.author.including(all: Author.books)).order(Column("id")))
            var counts: [Int] = []
            for row in rows {
                let author = try XCTUnwrap(row.scopes["author"])
                XCTAssertEqual(author["id"] as Int64?, row["authorId"] as Int64?)
                counts.append(try XCTUnwrap(author.prefetchedRows["books"]).count)
            }
            XCTAssertEqual(counts, books.map { book in books.filter { $0.authorId == book.authorId }.count })
        }
    }

    /// The records of prefetched rows share one decoder, moved from row to row: each has
    /// its own row's values, also with prefetched rows inside prefetched rows.
    func testPrefetchedRecordsHaveEachRowsValues() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let authors = try Author.order(Column("id")).fetchAll(db)
            let books = try Book.order(Column("id")).fetchAll(db)
            func expectedBooks(_ author: Author) -> [Book] { books.filter { $0.authorId == author.id } }

            let authorInfos = try Author.including(all: Author.books.order(Column("id"))).order(Column("id"))
                .asRequest(of: AuthorWithBooks.self).fetchAll(db)
            XCTAssertEqual(authorInfos, authors.map { AuthorWithBooks(author: $0, books: expectedBooks($0)) })

            let countryInfos =
                try Country
                .including(all: Country.hasMany(Author.self).forKey("authors").order(Column("id")).including(all: Author.books.order(Column("id"))))
                .order(Column("code"))
                .asRequest(of: CountryWithAuthors.self)
                .fetchAll(db)
            XCTAssertEqual(
                countryInfos,
                try Country.order(Column("code")).fetchAll(db).map { country in
                    CountryWithAuthors(
                        country: country,
                        authors: authors.filter { $0.countryCode == country.code }.map { AuthorWithBooks(author: $0, books: expectedBooks($0)) })
                })
        }
    }

    /// Copied rows may be decoded from several threads at once: each thread shares its own
    /// decoder among the prefetched rows.
    func testPrefetchedRowsDecodeOnSeveralThreadsAtOnce() throws {
        let dbQueue = try makeDatabase()
        let (rows, expected) = try dbQueue.read { db in
            let request = Author.including(all: Author.books.order(Column("id"))).order(Column("id"))
            return (try Row.fetchAll(db, request), try request.asRequest(of: AuthorWithBooks.self).fetchAll(db))
        }
        let results = LockedResults()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<20 {
                results.append(Result { try rows.map { try AuthorWithBooks(row: $0) } })
            }
        }
        XCTAssertEqual(results.count, 80)
        for result in results.all { XCTAssertEqual(try result.get(), expected) }
    }

    func testScopeRowsOfACursorHaveEachRecordsValues() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let expected = try expectedInfos(db)
            let rows = try Row.fetchCursor(db, Book.including(required: Book.author.including(optional: Author.country)).order(Column("id")))
            var index = 0
            while let row = try rows.next() {
                let author = try XCTUnwrap(row.scopesTree["author"])
                XCTAssertEqual(try Author(row: author), expected[index].author)
                XCTAssertEqual(row.scopesTree["country"]?["name"] as String?, expected[index].country?.name)
                XCTAssertNil(row.scopesTree["book"])
                index += 1
            }
            XCTAssertEqual(index, expected.count)
        }
    }

    func testRecordDecodedFromTheWholeRowUsesItsInitRow() throws {
        // As in GRDB, a record that is a property of another one, with no column and no
        // scope of its name, is built by its `init(row:)`: from a statement's row and from
        // an adapted one, in a cursor or from a copied row.
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let plain = try TitledInfo.fetchAll(db, sql: "SELECT title FROM books ORDER BY id")
            let joined = try Book.including(required: Book.author).order(Column("id")).asRequest(of: TitledInfo.self).fetchAll(db)
            let copied = try Row.fetchAll(db, sql: "SELECT title FROM books ORDER BY id").map { try TitledInfo(row: $0) }
            for infos in [plain, joined, copied] {
                XCTAssertEqual(infos.map(\.titled.title), (1...40).map { "Book \($0)" })
                XCTAssertTrue(infos.allSatisfy(\.titled.readByInitRow))
            }
        }
    }

    func testNestedDecodingErrorsNameTheColumn() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let request = SQLRequest<BookInfo>(
                sql: "SELECT books.*, NULL AS name FROM books",
                adapter: ScopeAdapter(["author": SuffixRowAdapter(fromIndex: 3)]))
            XCTAssertThrowsError(try request.fetchAll(db)) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .SQLITE_MISMATCH, "\(error)")
            }
        }
    }
}

private final class LockedResults: @unchecked Sendable {  // reached under the lock only
    private let lock = NSLock()
    private var results: [Result<[AuthorWithBooks], any Error>] = []
    func append(_ result: Result<[AuthorWithBooks], any Error>) { lock.withLock { results.append(result) } }
    var all: [Result<[AuthorWithBooks], any Error>] { lock.withLock { results } }
    var count: Int { all.count }
}
