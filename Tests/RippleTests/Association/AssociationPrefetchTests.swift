import Ripple
import XCTest

private struct Author: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "author"
    static let books = hasMany(Book.self)
    var id: Int64
    var name: String
}

private struct Book: Codable, FetchableRecord, PersistableRecord, Equatable, Hashable {
    static let databaseTableName = "book"
    static let chapters = hasMany(Chapter.self)
    static let author = belongsTo(Author.self)
    var id: Int64
    var authorId: Int64?
    var title: String
}

private struct Chapter: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "chapter"
    var id: Int64
    var bookId: Int64
    var number: Int
}

private struct AuthorInfo: Decodable, FetchableRecord, Equatable {
    var author: Author
    var books: [Book]
}

private struct BookWithChapters: Decodable, FetchableRecord, Equatable {
    var book: Book
    var chapters: [Chapter]
}

private struct AuthorWithNestedBooks: Decodable, FetchableRecord, Equatable {
    var author: Author
    var books: [BookWithChapters]
}

/// Decodes as GRDB's documentation shows a custom `init(from:)`: `decodeNil(forKey:)`
/// tells a missing association.
private struct AuthorWithOptionalBooks: Decodable, FetchableRecord {
    var author: Author
    var books: [Book]?
    enum CodingKeys: CodingKey { case author, books }
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        author = try container.decode(Author.self, forKey: .author)
        books = try container.decodeNil(forKey: .books) ? nil : container.decode([Book].self, forKey: .books)
    }
}

private struct BookWithOptionalAuthor: Decodable, FetchableRecord {
    var book: Book
    var author: Author?
    enum CodingKeys: CodingKey { case book, author }
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        book = try container.decode(Book.self, forKey: .book)
        author = try container.decodeNil(forKey: .author) ? nil : container.decode(Author.self, forKey: .author)
    }
}

private struct BookWithAuthorInfo: Decodable, FetchableRecord, Equatable {
    var book: Book
    var author: AuthorInfo?
}

/// `including(all:)`: one query per prefetched association, its rows grouped by key.
final class AssociationPrefetchTests: XCTestCase {
    private func makeDatabase(withRows: Bool = true) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "author") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
            }
            try db.create(table: "book") { t in
                t.primaryKey("id", .integer)
                t.belongsTo("author")
                t.column("title", .text).notNull()
            }
            try db.create(table: "chapter") { t in
                t.primaryKey("id", .integer)
                t.belongsTo("book").notNull()
                t.column("number", .integer).notNull()
            }
            try db.create(table: "unrelated") { t in t.autoIncrementedPrimaryKey("id") }
            guard withRows else { return }
            try Author(id: 1, name: "Hugo").insert(db)
            try Author(id: 2, name: "Melville").insert(db)
            try Author(id: 3, name: "Nobody").insert(db)
            try Book(id: 1, authorId: 1, title: "Les Misérables").insert(db)
            try Book(id: 2, authorId: 1, title: "Notre-Dame").insert(db)
            try Book(id: 3, authorId: 2, title: "Moby-Dick").insert(db)
            try Book(id: 4, authorId: nil, title: "Beowulf").insert(db)
            try Chapter(id: 1, bookId: 3, number: 1).insert(db)
            try Chapter(id: 2, bookId: 3, number: 2).insert(db)
        }
        return dbQueue
    }

    /// Whether a traced statement is one of the request's, as an application that reads
    /// its trace tells (GRDB's tests filter so): reads of the schema run `PRAGMA`
    /// statements or read `sqlite_master`, and must not look like the app's `SELECT`s.
    private static func isRequestStatement(_ sql: String) -> Bool {
        sql.contains("SELECT") && !sql.contains("sqlite_") && !sql.contains("pragma_table_xinfo")
    }

    /// The rows of `request`, and the request's statements that ran to fetch them.
    private static func fetchRows(_ db: Database, _ request: some FetchRequest) throws -> (rows: [Row], statements: [String]) {
        var statements: [String] = []
        db.trace { statements.append("\($0)") }
        defer { db.trace(options: []) }
        let rows = try Row.fetchAll(db, request)
        return (rows, statements.filter(isRequestStatement))
    }

    func testOneQueryPerAssociation() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let request = Author.including(all: Author.books.orderByPrimaryKey()).orderByPrimaryKey()
            let (rows, statements) = try Self.fetchRows(db, request)
            XCTAssertEqual(
                statements,
                [
                    #"SELECT * FROM "author" ORDER BY "id""#,
                    #"SELECT *, "authorId" AS "grdb_authorId" FROM "book" WHERE "authorId" IN (?, ?, ?) ORDER BY "id""#,
                ])
            XCTAssertEqual(rows.map { $0.prefetchedRows.keys }, [["books"], ["books"], ["books"]])
            XCTAssertEqual(rows.map { $0.prefetchedRows["books"]!.map { $0["id"] as Int64 } }, [[1, 2], [3], []])
            let books: [Book] = rows[0]["books"]
            XCTAssertEqual(books.map(\.title), ["Les Misérables", "Notre-Dame"])
        }
    }

    func testPrefetchedAssociationsCommonTableExpressionsAreInTheirOwnQuery() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let firstBook = CommonTableExpression(named: "firstBook", sql: "SELECT MIN(id) FROM book")
            let request = Author.including(all: Author.books.with(firstBook).filter(Column("id") == firstBook.all())).orderByPrimaryKey()
            let (rows, statements) = try Self.fetchRows(db, request)
            XCTAssertEqual(
                statements,
                [
                    #"SELECT * FROM "author" ORDER BY "id""#,
                    #"WITH "firstBook" AS (SELECT MIN(id) FROM book) SELECT *, "authorId" AS "grdb_authorId" FROM "book" WHERE ("id" = (SELECT * FROM "firstBook")) AND ("authorId" IN (?, ?, ?))"#,
                ])
            XCTAssertEqual(rows.map { $0.prefetchedRows["books"]!.map { $0["id"] as Int64 } }, [[1], [], []])
        }
    }

    func testNoQueryForNoRow() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let (rows, statements) = try Self.fetchRows(db, Author.none().including(all: Author.books))
            XCTAssertEqual(rows, [])
            XCTAssertEqual(statements, [#"SELECT * FROM "author" WHERE 0"#])
        }
    }

    func testDecodableRecordsDecodeArraysOfPrefetchedRecords() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let infos =
                try Author
                .including(all: Author.books.order(Column("title")))
                .orderByPrimaryKey()
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
            XCTAssertEqual(infos.map(\.author.name), ["Hugo", "Melville", "Nobody"])
            XCTAssertEqual(infos.map { $0.books.map(\.id) }, [[1, 2], [3], []])
            var statements: [String] = []
            db.trace { statements.append("\($0)") }
            let first = try Author.including(all: Author.books).filter(key: 2).asRequest(of: AuthorInfo.self).fetchOne(db)
            db.trace(options: [])
            XCTAssertEqual(first?.books.map(\.title), ["Moby-Dick"])
            XCTAssertTrue(statements.contains(#"SELECT *, "authorId" AS "grdb_authorId" FROM "book" WHERE "authorId" = ?"#), "\(statements)")
        }
    }

    func testNestedPrefetch() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let infos =
                try Author
                .including(all: Author.books.including(all: Book.chapters.order(Column("number").desc)).orderByPrimaryKey())
                .orderByPrimaryKey()
                .asRequest(of: AuthorWithNestedBooks.self)
                .fetchAll(db)
            XCTAssertEqual(infos[1].books.map(\.book.id), [3])
            XCTAssertEqual(infos[1].books[0].chapters.map(\.number), [2, 1])
            XCTAssertEqual(infos[0].books.map { $0.chapters.count }, [0, 0])
        }
    }

    func testConstantRegionObservationWithoutRowsTracksThePrefetchedTables() throws {
        let dbQueue = try makeDatabase(withRows: false)
        let collector = ValueCollector<[AuthorInfo]>()
        let request = Author.including(all: Author.books.orderByPrimaryKey()).orderByPrimaryKey().asRequest(of: AuthorInfo.self)
        // The first fetch finds no author, and runs no query of books.
        let observation = ValueObservation.trackingConstantRegion(request.fetchAll)
        let cancellable = observation.start(in: dbQueue, scheduling: .async(onQueue: DispatchQueue.global())) { error in
            collector.append(error: error)
        } onChange: { value in
            collector.append(value)
        }
        defer { cancellable.cancel() }
        collector.wait(until: { $0.count == 1 })
        try dbQueue.write { db in try Author(id: 1, name: "Hugo").insert(db) }
        collector.wait(until: { $0.count == 2 })
        try dbQueue.write { db in try Book(id: 1, authorId: 1, title: "Les Misérables").insert(db) }
        let values = collector.wait(until: { $0.count == 3 })
        XCTAssertEqual(values.last?.first?.books.map(\.title), ["Les Misérables"])
    }

    func testRegionHasThePrefetchedTables() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let request = Author.filter(Column("name") == "Nobody").including(all: Author.books.including(all: Book.chapters))
            XCTAssertEqual(try request.databaseRegion(db).tableNames, ["author", "book", "chapter"])
            // The statement of the request tells the same region.
            let statement = try request.makePreparedRequest(db, forSingleResult: false).statement
            XCTAssertEqual(statement.databaseRegion.tableNames, ["author", "book", "chapter"])
            // A request of no row reads nothing that can change it; a prefetch of no row
            // adds nothing.
            XCTAssertTrue(try Author.none().including(all: Author.books).databaseRegion(db).isEmpty)
            XCTAssertTrue(try Author.none().makePreparedRequest(db, forSingleResult: false).statement.databaseRegion.isEmpty)
            XCTAssertEqual(try Author.including(all: Author.books.none()).databaseRegion(db).tableNames, ["author"])
            // Another request of the same SQL keeps the statement's own region.
            let plain = try Author.filter(Column("name") == "Nobody").makePreparedRequest(db, forSingleResult: false).statement
            XCTAssertEqual(plain.databaseRegion.tableNames, ["author"])
        }
    }

    func testPrefetchedValues() throws {
        struct AuthorTitles: Decodable, FetchableRecord {
            var author: Author
            var books: [String]
        }
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let infos =
                try Author
                .including(all: Author.books.select(Column("title")).order(Column("title")).distinct())
                .orderByPrimaryKey()
                .asRequest(of: AuthorTitles.self)
                .fetchAll(db)
            XCTAssertEqual(infos.map(\.books), [["Les Misérables", "Notre-Dame"], ["Moby-Dick"], []])
        }
    }

    func testCursorThrows() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            XCTAssertThrowsError(try Author.including(all: Author.books).fetchCursor(db))
            XCTAssertThrowsError(try Row.fetchCursor(db, Author.including(all: Author.books)))
        }
    }

    func testObservationIsNotifiedByEachTableItReadsOnly() throws {
        let dbQueue = try makeDatabase()
        let collector = ValueCollector<[AuthorInfo]>()
        let observation = ValueObservation.tracking { db in
            try Author.including(all: Author.books.orderByPrimaryKey()).orderByPrimaryKey().asRequest(of: AuthorInfo.self).fetchAll(db)
        }
        let cancellable = observation.start(in: dbQueue, scheduling: .async(onQueue: DispatchQueue.global())) { error in
            collector.append(error: error)
        } onChange: { value in
            collector.append(value)
        }
        defer { cancellable.cancel() }
        collector.wait(until: { $0.count == 1 })
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO unrelated DEFAULT VALUES") }
        try dbQueue.write { db in try Book(id: 5, authorId: 3, title: "Untitled").insert(db) }
        let values = collector.wait(until: { $0.count == 2 })
        XCTAssertEqual(values[1][2].books.map(\.title), ["Untitled"])
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO unrelated DEFAULT VALUES") }
        try dbQueue.write { db in try db.execute(sql: "UPDATE author SET name = 'Victor Hugo' WHERE id = 1") }
        let last = collector.wait(until: { $0.count == 3 })
        XCTAssertEqual(last[2][0].author.name, "Victor Hugo")
        XCTAssertEqual(collector.values.count, 3, "the commits to the unrelated table notified nothing")
        XCTAssertEqual(collector.errors.count, 0)
    }

    /// An association joined to the request prefetches too: its query goes through the
    /// joined table, filtered on the keys of the fetched rows, and the rows are found in
    /// the joined association's scope (and, searched breadth-first, in the row).
    func testPrefetchNestedInJoinedAssociation() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let request =
                Book
                .including(optional: Book.author.including(all: Author.books.orderByPrimaryKey()))
                .orderByPrimaryKey()
            let (rows, statements) = try Self.fetchRows(db, request)
            XCTAssertEqual(
                statements,
                [
                    #"SELECT "book".*, "author".* FROM "book" LEFT JOIN "author" ON "author"."id" = "book"."authorId" ORDER BY "book"."id""#,
                    #"SELECT "book".*, "author"."id" AS "grdb_id" FROM "book" JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."id" IN (?, ?)) ORDER BY "book"."id""#,
                ])
            XCTAssertEqual(rows.map { $0.scopes["author"]!.prefetchedRows["books"]!.map { $0["id"] as Int64 } }, [[1, 2], [1, 2], [3], []])
            XCTAssertEqual(rows.map { $0.prefetchedRows["books"]!.map { $0["id"] as Int64 } }, [[1, 2], [1, 2], [3], []])
            XCTAssertEqual(rows[0].prefetchedRows.keys, ["books"])
            XCTAssertEqual(
                rows[2].debugDescription,
                """
                ▿ [id:3 authorId:2 title:"Moby-Dick"]
                  unadapted: [id:3 authorId:2 title:"Moby-Dick" id:2 name:"Melville"]
                  - author: [id:2 name:"Melville"]
                    + books: 1 row
                  + books: 1 row
                """)

            let infos = try request.asRequest(of: BookWithAuthorInfo.self).fetchAll(db)
            XCTAssertEqual(infos.map { $0.author?.books.map(\.id) }, [[1, 2], [1, 2], [3], nil])
            XCTAssertEqual(infos[2].author?.author.name, "Melville")
        }
    }

    /// Rows compare their prefetched rows and their scopes, as GRDB's do.
    func testRowsComparePrefetchedRows() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let plain = try XCTUnwrap(Row.fetchOne(db, Author.orderByPrimaryKey()))
            let prefetched = try XCTUnwrap(Row.fetchOne(db, Author.including(all: Author.books).orderByPrimaryKey()))
            let none = try XCTUnwrap(Row.fetchOne(db, Author.including(all: Author.books.none()).orderByPrimaryKey()))
            XCTAssertEqual(prefetched, prefetched.copy())
            XCTAssertEqual(plain, prefetched.unscoped)
            XCTAssertTrue(prefetched.unscoped.prefetchedRows.isEmpty)
            XCTAssertNotEqual(plain, prefetched)
            XCTAssertNotEqual(prefetched, none)
            XCTAssertEqual(none.prefetchedRows["books"], [])

            let joined = try XCTUnwrap(Row.fetchOne(db, Book.including(required: Book.author).orderByPrimaryKey()))
            XCTAssertNotEqual(joined, joined.unscoped)
            XCTAssertEqual(joined, joined.copy())
        }
    }

    /// A composite foreign key: the keys come from the request itself, in a common table
    /// expression (as GRDB queries them), whatever the number of rows.
    func testCompositeKeyPrefetchQueriesTheKeysOfTheRequest() throws {
        struct Parent: TableRecord { static let children = hasMany(Child.self) }
        struct Child: TableRecord {}
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "parent") { t in
                t.column("a", .integer)
                t.column("b", .integer)
                t.primaryKey(["a", "b"])
            }
            try db.create(table: "child") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("pa", .integer)
                t.column("pb", .integer)
                t.foreignKey(["pa", "pb"], references: "parent")
            }
            for a in 0..<1200 {
                try db.execute(sql: "INSERT INTO parent (a, b) VALUES (?, ?)", arguments: [a, a % 7])
                try db.execute(sql: "INSERT INTO child (pa, pb) VALUES (?, ?)", arguments: [a, a % 7])
            }
            let (rows, statements) = try Self.fetchRows(db, Parent.filter(Column("a") >= 2).including(all: Parent.children).orderByPrimaryKey())
            XCTAssertEqual(
                statements.last,
                """
                WITH "grdb_base" AS (SELECT "a", "b" FROM "parent" WHERE "a" >= ?) \
                SELECT *, "pa" AS "grdb_pa", "pb" AS "grdb_pb" FROM "child" WHERE ("pa", "pb") IN "grdb_base"
                """)
            XCTAssertEqual(rows.count, 1198)
            XCTAssertTrue(
                rows.allSatisfy { row in
                    row.prefetchedRows["children"]!.map { $0["pa"] as Int } == [row["a"] as Int]
                })
        }
    }

    func testDecodeNilTellsMissingAssociations() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let infos = try Author.including(all: Author.books).orderByPrimaryKey()
                .asRequest(of: AuthorWithOptionalBooks.self).fetchAll(db)
            XCTAssertEqual(infos.map { $0.books?.count }, [2, 1, 0])
            let books = try Book.including(optional: Book.author).orderByPrimaryKey()
                .asRequest(of: BookWithOptionalAuthor.self).fetchAll(db)
            XCTAssertEqual(books.map { $0.author?.name }, ["Hugo", "Hugo", "Melville", nil])
        }
    }

    /// A prefetched association can be grouped and filtered or annotated with aggregates
    /// of its own associations.
    func testPrefetchOfGroupedAndAggregatedAssociations() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let (rows, statements) = try Self.fetchRows(
                db,
                Author.including(
                    all: Author.books
                        .annotated(with: Book.chapters.count)
                        .having(Book.chapters.isEmpty == false)
                ).orderByPrimaryKey())
            XCTAssertEqual(
                statements.last,
                """
                SELECT "book".*, COUNT(DISTINCT "chapter"."id") AS "chapterCount", "book"."authorId" AS "grdb_authorId" \
                FROM "book" LEFT JOIN "chapter" ON "chapter"."bookId" = "book"."id" \
                WHERE "book"."authorId" IN (?, ?, ?) GROUP BY "book"."id" HAVING COUNT(DISTINCT "chapter"."id") > ?
                """)
            XCTAssertEqual(rows.map { $0.prefetchedRows["books"]!.map { $0["chapterCount"] as Int } }, [[], [2], []])

            let grouped = try Row.fetchAll(
                db, Author.including(all: Author.books.select(count(Column("id")).forKey("n")).group(Column("authorId"))).orderByPrimaryKey())
            XCTAssertEqual(grouped.map { $0.prefetchedRows["books"]!.map { $0["n"] as Int } }, [[2], [1], []])
        }
    }
}
