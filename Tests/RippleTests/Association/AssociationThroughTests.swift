import Ripple
import XCTest

private struct Country: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let authors = hasMany(Author.self)
    static let books = hasMany(Book.self, through: authors, using: Author.books)
    var code: String
    var name: String
}

private struct Author: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let country = belongsTo(Country.self)
    static let books = hasMany(Book.self)
    var id: Int64
    var name: String
    var countryCode: String?
}

private struct Book: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let author = belongsTo(Author.self)
    static let country = hasOne(Country.self, through: author, using: Author.country)
    var id: Int64
    var authorId: Int64?
    var title: String
}

private struct BookInfo: Decodable, FetchableRecord, Equatable {
    var book: Book
    var country: Country?
}

private struct CountryInfo: Decodable, FetchableRecord, Equatable {
    var country: Country
    var books: [Book]
}

/// Associations through others: `hasMany(_:through:using:)`, `hasOne(_:through:using:)`.
final class AssociationThroughTests: XCTestCase {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "country") { t in
                t.primaryKey("code", .text)
                t.column("name", .text).notNull()
            }
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.belongsTo("country")
            }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("author")
                t.column("title", .text).notNull()
            }
            try Country(code: "FR", name: "France").insert(db)
            try Country(code: "US", name: "United States").insert(db)
            try Author(id: 1, name: "Hugo", countryCode: "FR").insert(db)
            try Author(id: 2, name: "Melville", countryCode: "US").insert(db)
            try Author(id: 3, name: "Anonymous", countryCode: nil).insert(db)
            try Book(id: 1, authorId: 1, title: "Les Misérables").insert(db)
            try Book(id: 2, authorId: 2, title: "Moby-Dick").insert(db)
            try Book(id: 3, authorId: 1, title: "Notre-Dame").insert(db)
            try Book(id: 4, authorId: 3, title: "Beowulf").insert(db)
        }
        return dbQueue
    }

    func testSQLJoinsThePivot() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            XCTAssertEqual(
                try Book.including(optional: Book.country).makeSQL(db).sql,
                """
                SELECT "book".*, "country".* FROM "book" \
                LEFT JOIN "author" ON "author"."id" = "book"."authorId" \
                LEFT JOIN "country" ON "country"."code" = "author"."countryCode"
                """)
            // An explicit join of the pivot is the same join.
            XCTAssertEqual(
                try Book.including(optional: Book.country).including(required: Book.author).makeSQL(db).sql,
                """
                SELECT "book".*, "author".*, "country".* FROM "book" \
                JOIN "author" ON "author"."id" = "book"."authorId" \
                LEFT JOIN "country" ON "country"."code" = "author"."countryCode"
                """)
        }
    }

    func testRowsNestTheDestinationInThePivotScope() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let row = try XCTUnwrap(Row.fetchOne(db, Book.including(required: Book.country).filter(key: 2)))
            XCTAssertEqual(row.scopes.names, ["author"])
            XCTAssertEqual(row.scopes["author"]?.scopes["country"], ["code": "US", "name": "United States"])
            let infos = try Book.including(optional: Book.country).orderByPrimaryKey().asRequest(of: BookInfo.self).fetchAll(db)
            XCTAssertEqual(infos.map(\.country?.code), ["FR", "US", "FR", nil])
        }
    }

    func testRequestForThroughAssociation() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let france = try XCTUnwrap(Country.fetchOne(db, key: "FR"))
            let request = france.request(for: Country.books).order(Column("id"))
            XCTAssertEqual(
                try request.makeSQL(db).sql,
                """
                SELECT "book".* FROM "book" \
                JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."countryCode" = ?) \
                ORDER BY "book"."id"
                """)
            XCTAssertEqual(try request.fetchAll(db).map(\.id), [1, 3])
            let book = try XCTUnwrap(Book.fetchOne(db, key: 2))
            XCTAssertEqual(try book.request(for: Book.country).fetchOne(db)?.name, "United States")

            // The way back to the record is a join of its own, even when the destination
            // joins the same table: books of French authors, written by Hugo.
            let hugos = Country.hasMany(
                Book.self, through: Country.authors, using: Author.books.joining(required: Book.author.filter(Column("name") == "Hugo")))
            XCTAssertEqual(
                try france.request(for: hugos).makeSQL(db).sql,
                """
                SELECT "book".* FROM "book" \
                JOIN "author" "author1" ON ("author1"."id" = "book"."authorId") AND ("author1"."name" = ?) \
                JOIN "author" "author2" ON ("author2"."id" = "book"."authorId") AND ("author2"."countryCode" = ?)
                """)
            XCTAssertEqual(try france.request(for: hugos).order(Column("id")).fetchAll(db).map(\.id), [1, 3])

            // The pivot's own filter comes before the record's key, as GRDB writes it.
            let named = Country.hasMany(Book.self, through: Country.authors.filter(Column("name") != "Hugo"), using: Author.books)
            XCTAssertEqual(
                try france.request(for: named).makeSQL(db).sql,
                """
                SELECT "book".* FROM "book" \
                JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."name" <> ?) AND ("author"."countryCode" = ?)
                """)
            XCTAssertEqual(try france.request(for: named).fetchAll(db), [])
        }
    }

    func testPrefetchThroughAssociation() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let request = Country.including(all: Country.books.orderByPrimaryKey()).orderByPrimaryKey()
            var statements: [String] = []
            db.trace { statements.append("\($0)") }
            let infos = try request.asRequest(of: CountryInfo.self).fetchAll(db)
            db.trace(options: [])
            XCTAssertEqual(infos.map { $0.books.map(\.id) }, [[1, 3], [2]])
            XCTAssertTrue(
                statements.contains(
                    """
                    SELECT "book".*, "author"."countryCode" AS "grdb_countryCode" FROM "book" \
                    JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."countryCode" IN (?, ?)) \
                    ORDER BY "book"."id"
                    """), "\(statements)")
        }
    }

    func testObservationTracksThePivot() throws {
        let dbQueue = try makeDatabase()
        let collector = ValueCollector<[String?]>()
        let observation = ValueObservation.tracking { db in
            try Book.including(optional: Book.country).orderByPrimaryKey().asRequest(of: BookInfo.self).fetchAll(db).map(\.country?.code)
        }
        let cancellable = observation.start(in: dbQueue, scheduling: .async(onQueue: DispatchQueue.global())) { error in
            collector.append(error: error)
        } onChange: { value in
            collector.append(value)
        }
        defer { cancellable.cancel() }
        collector.wait(until: { $0.count == 1 })
        // The pivot changes: the anonymous author gets a country.
        try dbQueue.write { db in try db.execute(sql: "UPDATE author SET countryCode = 'US' WHERE id = 3") }
        let values = collector.wait(until: { $0.count == 2 })
        XCTAssertEqual(values[1], ["FR", "US", "FR", "US"])
    }

    /// The region of a prefetch through a pivot has the columns the query joins on, as a
    /// query of real keys reads them (a change of an author's id changes the books of a
    /// country).
    func testPrefetchRegionHasTheColumnsOfTheWayThrough() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let region = try Country.filter(Column("code") == "XX").including(all: Country.books).databaseRegion(db)
            XCTAssertEqual(region.description, "author(countryCode,id),book(authorId,id,title),country(code,name)")
        }
    }
}
