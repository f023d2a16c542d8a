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
    var authorId: Int64?
    var title: String
}

private struct Country: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "countries"
    static let authors = hasMany(Author.self)
    var code: String
    var name: String
}

private struct BookInfo: Decodable, FetchableRecord, Equatable {
    var book: Book
    var author: Author
}

private struct OptionalBookInfo: Decodable, FetchableRecord, Equatable {
    var book: Book
    var author: Author?
}

private struct BookWithCountry: Decodable, FetchableRecord, Equatable {
    var book: Book
    var author: Author
    var country: Country?
}

/// `including` and `joining`: the SQL GRDB writes, the rows and scopes, nested records.
final class AssociationJoinTests: XCTestCase {
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
                t.column("authorId", .integer).references("authors")
                t.column("title", .text).notNull()
            }
            try Country(code: "FR", name: "France").insert(db)
            try Author(id: 1, name: "Hugo", countryCode: "FR").insert(db)
            try Author(id: 2, name: "Melville", countryCode: nil).insert(db)
            try Book(id: 1, authorId: 1, title: "Les Misérables").insert(db)
            try Book(id: 2, authorId: 2, title: "Moby-Dick").insert(db)
            try Book(id: 3, authorId: nil, title: "Beowulf").insert(db)
        }
        return dbQueue
    }

    private func sql(_ db: Database, _ request: QueryInterfaceRequest<some Any>) throws -> String {
        try request.makeSQL(db).sql
    }

    func testSQLOfIncludingAndJoining() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            XCTAssertEqual(
                try sql(db, Book.including(required: Book.author)),
                """
                SELECT "books".*, "authors".* FROM "books" JOIN "authors" ON "authors"."id" = "books"."authorId"
                """)
            XCTAssertEqual(
                try sql(db, Book.including(optional: Book.author)),
                """
                SELECT "books".*, "authors".* FROM "books" LEFT JOIN "authors" ON "authors"."id" = "books"."authorId"
                """)
            XCTAssertEqual(
                try sql(db, Book.joining(required: Book.author.filter(Column("name") == "Hugo")).order(Column("title"))),
                """
                SELECT "books".* FROM "books" JOIN "authors" ON ("authors"."id" = "books"."authorId") AND ("authors"."name" = ?) \
                ORDER BY "books"."title"
                """)
            XCTAssertEqual(
                try sql(db, Author.including(required: Author.books)),
                """
                SELECT "authors".*, "books".* FROM "authors" JOIN "books" ON "books"."authorId" = "authors"."id"
                """)
            XCTAssertEqual(
                try sql(db, Book.including(required: Book.author.including(optional: Author.country))),
                """
                SELECT "books".*, "authors".*, "countries".* FROM "books" \
                JOIN "authors" ON "authors"."id" = "books"."authorId" \
                LEFT JOIN "countries" ON "countries"."code" = "authors"."countryCode"
                """)
        }
    }

    func testJoinedAssociationsCommonTableExpressionsJoinTheRequestsWithClause() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let favorite = CommonTableExpression(named: "favorite", sql: "SELECT 'Hugo'")
            let other = CommonTableExpression(named: "other", sql: "SELECT 0")
            let request = Book.with(other)
                .joining(required: Book.author.with(favorite).with(other).filter(Column("name") == favorite.all()))
                .order(Column("id"))
            // The request's own `other` is kept; the association's `favorite` joins it.
            XCTAssertEqual(
                try sql(db, request),
                """
                WITH "other" AS (SELECT 0), "favorite" AS (SELECT 'Hugo') \
                SELECT "books".* FROM "books" \
                JOIN "authors" ON ("authors"."id" = "books"."authorId") AND ("authors"."name" = (SELECT * FROM "favorite")) \
                ORDER BY "books"."id"
                """)
            XCTAssertEqual(try request.fetchAll(db).map(\.title), ["Les Misérables"])
        }
    }

    func testDestinationSelectsWhatItsRecordTypeSelects() throws {
        struct Writer: TableRecord {
            static let databaseTableName = "authors"
            static let databaseSelection: [any SQLSelectable] = [Column("name")]
        }
        let association = Book.belongsTo(Writer.self, using: ForeignKey(["authorId"]))
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            XCTAssertEqual(
                try sql(db, Book.including(required: association)),
                """
                SELECT "books".*, "authors"."name" FROM "books" JOIN "authors" ON "authors"."id" = "books"."authorId"
                """)
        }
    }

    func testIncludingRequiredDecodesNestedRecords() throws {
        let dbQueue = try makeDatabase()
        let infos = try dbQueue.read { db in
            try Book.including(required: Book.author).order(Column("id")).asRequest(of: BookInfo.self).fetchAll(db)
        }
        XCTAssertEqual(infos.map(\.book.title), ["Les Misérables", "Moby-Dick"])
        XCTAssertEqual(infos.map(\.author.name), ["Hugo", "Melville"])
    }

    func testIncludingOptionalDecodesNilForMissingRows() throws {
        let dbQueue = try makeDatabase()
        let infos = try dbQueue.read { db in
            try Book.including(optional: Book.author).order(Column("id")).asRequest(of: OptionalBookInfo.self).fetchAll(db)
        }
        XCTAssertEqual(infos.map(\.book.id), [1, 2, 3])
        XCTAssertEqual(infos.map(\.author?.name), ["Hugo", "Melville", nil])
    }

    func testChainDecodesFromNestedScopes() throws {
        let dbQueue = try makeDatabase()
        let infos = try dbQueue.read { db in
            try Book
                .including(required: Book.author.including(optional: Author.country))
                .order(Column("id"))
                .asRequest(of: BookWithCountry.self)
                .fetchAll(db)
        }
        XCTAssertEqual(infos.map(\.book.id), [1, 2])
        XCTAssertEqual(infos.map(\.country?.name), ["France", nil])
    }

    func testRowsHoldScopes() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let row = try XCTUnwrap(Row.fetchOne(db, Book.including(required: Book.author).filter(key: 2)))
            XCTAssertEqual(row.unscoped, ["id": 2, "authorId": 2, "title": "Moby-Dick"])
            // Rows compare their scopes too: a renamed author changes the row.
            XCTAssertNotEqual(row, ["id": 2, "authorId": 2, "title": "Moby-Dick"])
            XCTAssertEqual(row.scopes.names, ["author"])
            XCTAssertEqual(row.scopes["author"], ["id": 2, "name": "Melville", "countryCode": nil])
            let author: Author = row["author"]
            XCTAssertEqual(author.name, "Melville")
            XCTAssertEqual(try row.decode(Author.self, forKey: "author").id, 2)
            XCTAssertThrowsError(try row.decode(Country.self, forKey: "country"))
        }
    }

    func testFilterOnJoinedTableThroughAlias() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let authorAlias = TableAlias()
            let request =
                Book
                .joining(required: Book.author.aliased(authorAlias))
                .filter(authorAlias[Column("name")] == "Melville")
            XCTAssertEqual(
                try sql(db, request),
                """
                SELECT "books".* FROM "books" JOIN "authors" ON "authors"."id" = "books"."authorId" WHERE "authors"."name" = ?
                """)
            XCTAssertEqual(try request.fetchAll(db).map(\.title), ["Moby-Dick"])
            let named = TableAlias(name: "a")
            XCTAssertEqual(
                try sql(db, Author.aliased(named).filter(Column("id") == 1)),
                """
                SELECT "a".* FROM "authors" "a" WHERE "a"."id" = ?
                """)
            let undefined = TableAlias()
            XCTAssertThrowsError(try Book.filter(undefined[Column("name")] == "x").fetchAll(db))
        }
    }

    func testSelfJoinNumbersTables() throws {
        struct Employee: TableRecord {
            static let manager = belongsTo(Employee.self, key: "manager")
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "employee") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("manager", inTable: "employee")
            }
            XCTAssertEqual(
                try sql(db, Employee.including(optional: Employee.manager)),
                """
                SELECT "employee1".*, "employee2".* FROM "employee" "employee1" \
                LEFT JOIN "employee" "employee2" ON "employee2"."id" = "employee1"."managerId"
                """)
            try db.execute(sql: "INSERT INTO employee VALUES (1, NULL), (2, 1)")
            let rows = try Row.fetchAll(db, Employee.including(optional: Employee.manager).order(Column("id")))
            XCTAssertEqual(rows.map { $0.scopes["manager"]?["id"] as Int64? }, [nil, 1])
        }
    }

    func testRequestForAssociation() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let book = try XCTUnwrap(Book.fetchOne(db, key: 2))
            XCTAssertEqual(try book.request(for: Book.author).fetchOne(db)?.name, "Melville")
            let orphan = try XCTUnwrap(Book.fetchOne(db, key: 3))
            XCTAssertNil(try orphan.request(for: Book.author).fetchOne(db))
            let hugo = try XCTUnwrap(Author.fetchOne(db, key: 1))
            XCTAssertEqual(try hugo.request(for: Author.books).fetchAll(db).map(\.id), [1])
            XCTAssertEqual(try hugo.request(for: Author.books.filter(Column("title") == "x")).fetchCount(db), 0)
        }
    }

    func testForeignKeyErrorsSayHowToFixTheDeclaration() throws {
        struct Loose: TableRecord { static let databaseTableName = "books" }
        struct Target: TableRecord { static let databaseTableName = "countries" }
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            XCTAssertThrowsError(try Loose.including(required: Loose.belongsTo(Target.self)).fetchCount(db)) { error in
                XCTAssertTrue("\(error)".contains("ForeignKey"), "\(error)")
            }
            // A key the declaration gives.
            let explicit = Book.belongsTo(Author.self, key: "writer", using: ForeignKey(["authorId"], to: ["id"]))
            let row = try XCTUnwrap(Row.fetchOne(db, Book.including(required: explicit).filter(key: 1)))
            XCTAssertEqual(row.scopes["writer"]?["name"], "Hugo")
        }
    }

    func testAddedColumnDoesNotShiftTheScopes() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let request = Book.including(required: Book.author).filter(key: 2)
            XCTAssertEqual(try Row.fetchOne(db, request)?.scopes["author"]?["name"], "Melville")
            try db.execute(sql: "ALTER TABLE books ADD COLUMN pages INTEGER DEFAULT 100")
            let row = try XCTUnwrap(Row.fetchOne(db, request))
            XCTAssertEqual(row["pages"], 100)
            XCTAssertEqual(row.scopes["author"], ["id": 2, "name": "Melville", "countryCode": nil])
        }
    }

    func testCountAndDeleteOfJoinedRequests() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            XCTAssertEqual(try Book.including(required: Book.author).fetchCount(db), 2)
            XCTAssertEqual(try Book.joining(optional: Book.author).fetchCount(db), 3)
            let authorAlias = TableAlias()
            let deleted = try Book.joining(required: Book.author.aliased(authorAlias))
                .filter(authorAlias[Column("name")] == "Hugo")
                .deleteAll(db)
            XCTAssertEqual(deleted, 1)
            XCTAssertEqual(try Book.order(Column("id")).fetchAll(db).map(\.id), [2, 3])
        }
    }

    /// Annotations are selected right after the columns they annotate, in the order of
    /// the `annotated` calls, before included associations: as GRDB selects them.
    func testAnnotationsPrecedeIncludedAssociations() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let countryName = Author.country.select(Column("name").forKey("countryName"))
            let request =
                Book
                .including(optional: Book.author)
                .annotated(withOptional: Book.author.forKey("writer").select(Column("name").forKey("authorName")))
            XCTAssertEqual(
                try sql(db, request),
                """
                SELECT "books".*, "authors2"."name" AS "authorName", "authors1".* FROM "books" \
                LEFT JOIN "authors" "authors1" ON "authors1"."id" = "books"."authorId" \
                LEFT JOIN "authors" "authors2" ON "authors2"."id" = "books"."authorId"
                """)
            let row = try XCTUnwrap(Row.fetchOne(db, request.order(Column("id"))))
            XCTAssertEqual(row["authorName"] as String?, "Hugo")
            XCTAssertEqual(row.scopes["author"]?["name"] as String?, "Hugo")

            // Through an included pivot: the columns are still the annotated request's.
            let bookCountry = Book.hasOne(Country.self, through: Book.author, using: Author.country)
            let through =
                Book
                .including(optional: Book.author)
                .annotated(withOptional: bookCountry.select(Column("name").forKey("countryName")))
            XCTAssertEqual(
                try sql(db, through),
                """
                SELECT "books".*, "countries"."name" AS "countryName", "authors".* FROM "books" \
                LEFT JOIN "authors" ON "authors"."id" = "books"."authorId" \
                LEFT JOIN "countries" ON "countries"."code" = "authors"."countryCode"
                """)
            let throughRow = try XCTUnwrap(Row.fetchOne(db, through.order(Column("id"))))
            XCTAssertEqual(throughRow["countryName"] as String?, "France")
            XCTAssertEqual(Array(throughRow.scopes["author"]!.columnNames), ["id", "name", "countryCode"])

            // Nested: the annotation of an included association is in its scope, first.
            let nested = Book.including(required: Book.author.annotated(withOptional: countryName))
            let nestedRow = try XCTUnwrap(Row.fetchOne(db, nested.order(Column("id"))))
            XCTAssertEqual(Array(nestedRow.scopes["author"]!.columnNames), ["id", "name", "countryCode", "countryName"])
            XCTAssertEqual(nestedRow.scopes["author"]?["countryName"] as String?, "France")
        }
    }

    /// A reversed request or association reverses the orderings of the associations it
    /// includes; a reversed request without ordering of its own is unchanged.
    func testReversalReachesIncludedAssociations() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let prefix = #"SELECT "books".*, "authors".* FROM "books" JOIN "authors" ON "authors"."id" = "books"."authorId""#
            XCTAssertEqual(
                try sql(db, Book.including(required: Book.author.order(Column("name"))).reversed()),
                prefix + #" ORDER BY "authors"."name" DESC"#)
            XCTAssertEqual(
                try sql(db, Book.including(required: Book.author.order(Column("name")).reversed()).reversed()),
                prefix + #" ORDER BY "authors"."name""#)
            XCTAssertEqual(try sql(db, Book.including(required: Book.author).reversed()), prefix)
            let chain = Book.including(required: Book.author.reversed().including(optional: Author.country.order(Column("name"))))
            XCTAssertTrue(try sql(db, chain).hasSuffix(#" ORDER BY "countries"."name" DESC"#))
        }
    }

    /// `TableAlias.exists`: whether an optionally joined table has a row, by its key.
    func testTableAliasExists() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let authorAlias = TableAlias()
            let orphans = Book.joining(optional: Book.author.aliased(authorAlias)).filter(!authorAlias.exists)
            XCTAssertEqual(
                try sql(db, orphans),
                """
                SELECT "books".* FROM "books" LEFT JOIN "authors" ON "authors"."id" = "books"."authorId" \
                WHERE "authors"."id" IS NULL
                """)
            XCTAssertEqual(try orphans.fetchAll(db).map(\.id), [3])
            let withAuthor = Book.joining(optional: Book.author.aliased(authorAlias)).filter(authorAlias.exists && Column("id") > 1)
            XCTAssertEqual(try withAuthor.fetchAll(db).map(\.id), [2])

            // A table whose key is not the rowid: its rowid tells.
            let countryAlias = TableAlias()
            let stateless = Author.joining(optional: Author.country.aliased(countryAlias)).filter(!countryAlias.exists)
            XCTAssertTrue(try sql(db, stateless).hasSuffix(#"WHERE "countries"."rowid" IS NULL"#))
            XCTAssertEqual(try stateless.fetchAll(db).map(\.name), ["Melville"])

            // A view has no rowid: all its columns tell.
            try db.execute(sql: "CREATE VIEW writer AS SELECT id, name FROM authors")
            let writerAlias = TableAlias()
            let unwritten = Table("books").joining(
                optional: Table("books").belongsTo(Table("writer"), using: ForeignKey(["authorId"], to: ["id"])).aliased(writerAlias)
            ).filter(!writerAlias.exists)
            XCTAssertTrue(try sql(db, unwritten).hasSuffix(#"WHERE ("writer"."id" IS NULL) AND ("writer"."name" IS NULL)"#))
            XCTAssertEqual(try Row.fetchAll(db, unwritten).map { $0["id"] as Int64 }, [3])
        }
    }

    /// Of two joins of one association, the last that selects tells the selection.
    func testMergedJoinsSelectAsTheLastIncluding() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let prefix = #"SELECT "books".*, "#
            let narrow = Book.author.select(Column("name"))
            XCTAssertTrue(try sql(db, Book.including(required: narrow).including(required: Book.author)).hasPrefix(prefix + #""authors".* FROM"#))
            XCTAssertTrue(
                try sql(db, Book.including(required: Book.author).including(required: narrow)).hasPrefix(prefix + #""authors"."name" FROM"#))
            XCTAssertTrue(try sql(db, Book.including(required: narrow).joining(required: Book.author)).hasPrefix(prefix + #""authors"."name" FROM"#))
        }
    }

    /// An observation of rows that include an association, without duplicates, sees a
    /// change to the included record only: checked against the tables' content.
    func testObservationWithoutDuplicatesSeesAChangedIncludedRecord() throws {
        let dbQueue = try makeDatabase()
        let collector = ValueCollector<[Row]>()
        let request = Book.including(required: Book.author).orderByPrimaryKey()
        let observation = ValueObservation.tracking { db in try Row.fetchAll(db, request) }.removeDuplicates()
        let cancellable = observation.start(in: dbQueue, scheduling: .async(onQueue: DispatchQueue.global())) { error in
            collector.append(error: error)
        } onChange: { rows in
            collector.append(rows)
        }
        defer { cancellable.cancel() }
        collector.wait(until: { $0.count == 1 })
        // Only the included author changes: the books' own columns stay the same.
        try dbQueue.write { db in try db.execute(sql: "UPDATE authors SET name = 'Herman Melville' WHERE id = 2") }
        let values = collector.wait(until: { $0.count == 2 })
        let truth = try dbQueue.read { db in
            try String.fetchAll(db, sql: "SELECT authors.name FROM books JOIN authors ON authors.id = books.authorId ORDER BY books.id")
        }
        XCTAssertEqual(values[1].map { $0.scopes["author"]!["name"] as String }, truth)
        XCTAssertEqual(truth, ["Hugo", "Herman Melville"])
    }
}
