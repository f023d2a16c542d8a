import XCTest

@testable import Ripple

final class QueryInterfaceRequestTests: XCTestCase {
    private func sql(_ dbQueue: DatabaseQueue, _ request: QueryInterfaceRequest<some Any>) throws -> String {
        try dbQueue.read { db in
            let sql = try request.makeSQL(db)
            // Inline the arguments, for readable assertions.
            var result = ""
            var arguments = sql.arguments.values.makeIterator()
            for character in sql.sql {
                if character == "?", let value = arguments.next() { result += value.description } else { result.append(character) }
            }
            return result
        }
    }

    func testGeneratedSQL() throws {
        let dbQueue = try makePlayerDatabase()
        let score = Column("score")
        XCTAssertEqual(try sql(dbQueue, Player.all()), #"SELECT * FROM "player""#)
        XCTAssertEqual(try sql(dbQueue, Player.filter(key: 1)), #"SELECT * FROM "player" WHERE "id" = 1"#)
        XCTAssertEqual(try sql(dbQueue, Player.filter(keys: [1, 2, 3])), #"SELECT * FROM "player" WHERE "id" IN (1, 2, 3)"#)
        XCTAssertEqual(try sql(dbQueue, Player.order(score.desc).limit(10)), #"SELECT * FROM "player" ORDER BY "score" DESC LIMIT 10"#)
        XCTAssertEqual(
            try sql(dbQueue, Player.order(score.desc, Column("name")).limit(10, offset: 20)),
            #"SELECT * FROM "player" ORDER BY "score" DESC, "name" LIMIT 10 OFFSET 20"#)
        XCTAssertEqual(try sql(dbQueue, Player.select(\.score)), #"SELECT "score" FROM "player""#)
        XCTAssertEqual(
            try sql(dbQueue, Player.filter(score > 1000 && Column("name") != nil)),
            #"SELECT * FROM "player" WHERE ("score" > 1000) AND ("name" IS NOT NULL)"#)
        XCTAssertEqual(try sql(dbQueue, Player.filter(Column("teamId") == nil)), #"SELECT * FROM "player" WHERE "teamId" IS NULL"#)
        XCTAssertEqual(
            try sql(dbQueue, Player.filter(!(score >= 10) || Column("name").like("A%"))),
            #"SELECT * FROM "player" WHERE (NOT ("score" >= 10)) OR ("name" LIKE "A%")"#)
        XCTAssertEqual(try sql(dbQueue, Player.filter([1, 2].contains(Column("id")))), #"SELECT * FROM "player" WHERE "id" IN (1, 2)"#)
        XCTAssertEqual(
            try sql(dbQueue, Player.filter(score * 2 + 1 < 100 - score / 2)),
            #"SELECT * FROM "player" WHERE (("score" * 2) + 1) < (100 - ("score" / 2))"#)
        XCTAssertEqual(try sql(dbQueue, Player.all().reversed()), #"SELECT * FROM "player""#)
        XCTAssertEqual(try sql(dbQueue, Player.none().filter(score > 1)), #"SELECT * FROM "player" WHERE 0 AND ("score" > 1)"#)
        XCTAssertEqual(try sql(dbQueue, Player.order(score).reversed()), #"SELECT * FROM "player" ORDER BY "score" DESC"#)
        XCTAssertEqual(
            try sql(dbQueue, Player.select(Column("teamId"), max(score)).group(Column("teamId")).having(count(Column("id")) > 1)),
            #"SELECT "teamId", MAX("score") FROM "player" GROUP BY "teamId" HAVING COUNT("id") > 1"#)
        XCTAssertEqual(try sql(dbQueue, Player.select(Column("name")).distinct()), #"SELECT DISTINCT "name" FROM "player""#)
        XCTAssertEqual(
            try sql(dbQueue, Table("player").select(min(score), sum(score), average(score))),
            #"SELECT MIN("score"), SUM("score"), AVG("score") FROM "player""#)
        XCTAssertEqual(try sql(dbQueue, Player.select((score * 2).forKey("double"))), #"SELECT "score" * 2 AS "double" FROM "player""#)
        XCTAssertEqual(try sql(dbQueue, Player.select(count(distinct: Column("teamId")))), #"SELECT COUNT(DISTINCT "teamId") FROM "player""#)
        XCTAssertEqual(try sql(dbQueue, Player.filter(-score < 0)), #"SELECT * FROM "player" WHERE (-"score") < 0"#)
    }

    func testIdentifiersAndLiteralsAreQuoted() throws {
        XCTAssertEqual("player".quotedDatabaseIdentifier, #""player""#)
        XCTAssertEqual(#"my "table""#.quotedDatabaseIdentifier, #""my ""table""""#)
        XCTAssertEqual(#"""#.quotedDatabaseIdentifier, #""""""#)
        XCTAssertEqual("".quotedDatabaseIdentifier, #""""#)
        XCTAssertEqual("joueur été 🎲".quotedDatabaseIdentifier, #""joueur été 🎲""#)
        XCTAssertEqual("it's".sqlQuoted(by: UInt8(ascii: "'")), "'it''s'")
        // SQLite reads them back as they were.
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            for name in [#"my "table""#, #"""#, "été 🎲 \"quoted\" 'single'"] {
                try db.execute(sql: "CREATE TABLE \(name.quotedDatabaseIdentifier)(\(name.quotedDatabaseIdentifier))")
                try db.execute(sql: "INSERT INTO \(name.quotedDatabaseIdentifier) VALUES (\(name.sqlQuoted(by: UInt8(ascii: "'"))))")
                XCTAssertEqual(try String.fetchOne(db, sql: "SELECT \(name.quotedDatabaseIdentifier) FROM \(name.quotedDatabaseIdentifier)"), name)
                XCTAssertEqual(
                    try String.fetchOne(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [name]), name)
            }
        }
    }

    func testFetchingRequests() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            for (name, score) in [("Arthur", 100), ("Barbara", 1000), ("Craig", 500)] {
                var player = Player(name: name, score: score)
                try player.insert(db)
            }
        }
        try dbQueue.read { db in
            XCTAssertEqual(try Player.fetchCount(db), 3)
            XCTAssertEqual(try Player.order(Player.score.desc).limit(2).fetchAll(db).map(\.name), ["Barbara", "Craig"])
            XCTAssertEqual(try Player.filter(key: 1).fetchOne(db)?.name, "Arthur")
            XCTAssertNil(try Player.filter(key: 42).fetchOne(db))
            XCTAssertEqual(try Player.fetchOne(db, key: 2)?.name, "Barbara")
            XCTAssertEqual(try Player.fetchAll(db, keys: [1, 3]).map(\.name), ["Arthur", "Craig"])
            XCTAssertEqual(try Player.select(max(Player.score), as: Int.self).fetchOne(db), 1000)
            XCTAssertEqual(try Player.select(Player.name).asRequest(of: String.self).fetchSet(db), ["Arthur", "Barbara", "Craig"])
            XCTAssertEqual(try Player.filter(Player.score > 200).fetchCount(db), 2)
            XCTAssertEqual(try Player.limit(2).fetchCount(db), 2)
            XCTAssertEqual(try Table("player").fetchCount(db), 3)
            XCTAssertEqual(try Table("player").filter(key: 3).fetchOne(db)?["name"] as? String, "Craig")
            XCTAssertEqual(try Table<Player>("player").fetchAll(db).count, 3)
            XCTAssertEqual(
                try Row.fetchAll(db, Player.order(Player.name).select(Player.name)), [["name": "Arthur"], ["name": "Barbara"], ["name": "Craig"]])
            XCTAssertEqual(try String.fetchAll(db, Player.order(Player.name.desc).select(Player.name)), ["Craig", "Barbara", "Arthur"])
            let cursor = try Player.order(Player.name).fetchCursor(db)
            XCTAssertEqual(try cursor.next()?.name, "Arthur")
            XCTAssertTrue(try Player.exists(db, key: 1))
            XCTAssertFalse(try Player.exists(db, key: 9))
            XCTAssertEqual(try Player.none().fetchCount(db), 0)
        }
    }

    func testDeleteAllAndUpdateAll() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (name, score) VALUES ('A', 1), ('B', 2), ('C', 3)")
            XCTAssertEqual(try Player.filter(Player.score > 1).updateAll(db, Player.score.set(to: 0)), 2)
            XCTAssertEqual(try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id"), [1, 0, 0])
            XCTAssertEqual(try Player.filter(Player.score == 0).deleteAll(db), 2)
            XCTAssertEqual(try Player.deleteAll(db), 1)
            XCTAssertEqual(try Player.fetchCount(db), 0)
            XCTAssertTrue(try Player.deleteOne(db, key: 1) == false)
        }
    }

    func testFilterWhenConnected() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (name, score) VALUES ('A', 1), ('B', 2), ('C', 3)")
            try db.execute(sql: "CREATE TABLE settings (threshold INT); INSERT INTO settings VALUES (1)")
        }
        let request = Player.all()
            .filterWhenConnected { db in Column("score") > (try Int.fetchOne(db, sql: "SELECT threshold FROM settings") ?? 0) }
            .filter(Column("name") != "C")
        XCTAssertEqual(try sql(dbQueue, request), #"SELECT * FROM "player" WHERE ("score" > 1) AND ("name" <> "C")"#)
        try dbQueue.write { db in try db.execute(sql: "UPDATE settings SET threshold = 0") }
        XCTAssertEqual(try dbQueue.read { db in try request.fetchCount(db) }, 2, "the predicate is made at each run")
        XCTAssertThrowsError(
            try dbQueue.read { db in
                try Player.all().filterWhenConnected { _ in throw DatabaseError(message: "no") }.fetchAll(db)
            })
    }

    func testExpressionSpellingsOfGRDB() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (name, score) VALUES ('A', 1), ('B', 2), ('C', 3)")
            try db.execute(sql: "CREATE TABLE note (body TEXT); INSERT INTO note VALUES ('x'), (NULL)")
        }
        let score = Column("score")
        let name = Column("name")
        XCTAssertEqual(try sql(dbQueue, Player.filter(score === 1)), #"SELECT * FROM "player" WHERE "score" IS 1"#)
        XCTAssertEqual(try sql(dbQueue, Player.filter(score !== nil)), #"SELECT * FROM "player" WHERE "score" IS NOT NULL"#)
        try dbQueue.read { db in
            func names(_ request: QueryInterfaceRequest<Player>) throws -> [String] {
                try request.order(Column("id")).fetchAll(db).map(\.name)
            }
            XCTAssertEqual(try names(Player.filter((1.5..<3).contains(score))), ["B"])
            XCTAssertEqual(try names(Player.filter((2...3).contains(score))), ["B", "C"])
            XCTAssertEqual(try names(Player.filter(("A"..."B").contains(name))), ["A", "B"])
            XCTAssertEqual(try names(Player.filter(([1, "C"] as [any SQLExpressible]).contains(score))), ["A"])
            XCTAssertEqual(try names(Player.filter(([1, "C"] as [any SQLExpressible]).contains(name))), ["C"])
            XCTAssertEqual(try names(Player.filter(score === 2)), ["B"])
            let body = Column("body")
            XCTAssertEqual(try Table("note").order(body.ascNullsLast).fetchAll(db).map { $0["body"] as String? }, ["x", nil])
            XCTAssertEqual(try Table("note").order(body.descNullsFirst).fetchAll(db).map { $0["body"] as String? }, [nil, "x"])
            XCTAssertEqual(try Table("note").order(body.ascNullsLast).reversed().fetchAll(db).map { $0["body"] as String? }, [nil, "x"])
            XCTAssertEqual(try Scored.select({ $0.name }, as: String.self).order(Column("id")).fetchAll(db), ["A", "B", "C"])
            XCTAssertEqual(try Scored.all().select { $0.score }.asRequest(of: Int.self).fetchAll(db).sorted(), [1, 2, 3])
        }
    }

    func testPrimaryKeyOrderingAndGrouping() throws {
        let dbQueue = try makePlayerDatabase()
        XCTAssertEqual(try sql(dbQueue, Player.orderByPrimaryKey()), #"SELECT * FROM "player" ORDER BY "id""#)
        XCTAssertEqual(try sql(dbQueue, Player.orderByPrimaryKey().reversed()), #"SELECT * FROM "player" ORDER BY "id" DESC"#)
        XCTAssertEqual(try sql(dbQueue, Player.orderByPrimaryKey().order(Column("name"))), #"SELECT * FROM "player" ORDER BY "name""#)
        XCTAssertEqual(try sql(dbQueue, Player.all().groupByPrimaryKey()), #"SELECT * FROM "player" GROUP BY "id""#)
        XCTAssertEqual(try sql(dbQueue, Player.all().groupByPrimaryKey().asRequest(of: Row.self)), #"SELECT * FROM "player" GROUP BY "id""#)
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE note (body TEXT)") }
        XCTAssertEqual(try sql(dbQueue, Table("note").all().orderByPrimaryKey()), #"SELECT * FROM "note" ORDER BY "rowid""#)
    }

    func testTableKeyMethods() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (name, score) VALUES ('A', 1), ('B', 2), ('C', 2)")
            let table = Table("player")
            XCTAssertTrue(try table.exists(db, key: 1))
            XCTAssertFalse(try table.exists(db, key: 9))
            XCTAssertTrue(try table.exists(db, key: ["id": 2]))
            XCTAssertThrowsError(try table.exists(db, key: ["name": "B"]), "name is no unique key")
            XCTAssertEqual(try table.fetchOne(db, key: 2)?["name"] as String?, "B")
            XCTAssertEqual(try Table<Player>("player").fetchAll(db, keys: [1, 3]).map(\.name), ["A", "C"])
            XCTAssertEqual(try table.group(Column("score")).fetchCount(db), 2)
            XCTAssertEqual(try table.select(Column("score")).distinct().fetchCount(db), 2)
            // An aggregate without grouping is one row, as fetchAll gives it.
            for request in [
                table.select(sum(Column("score"))), table.select(max(Column("score")) + 1), table.select(max(Column("score"))).distinct(),
            ] {
                XCTAssertEqual(try request.fetchCount(db), 1)
                XCTAssertEqual(try request.fetchCount(db), try request.asRequest(of: Row.self).fetchAll(db).count)
            }
            XCTAssertEqual(try table.orderByPrimaryKey().reversed().fetchOne(db)?["name"] as String?, "C")
            XCTAssertTrue(try table.deleteOne(db, key: 1))
            XCTAssertTrue(try table.deleteOne(db, key: ["id": 2]))
            XCTAssertEqual(try table.deleteAll(db, keys: [3, 4]), 1)
            XCTAssertTrue(try table.isEmpty(db))
        }
    }

    func testAnyFetchRequest() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name, score) VALUES ('A', 1), ('B', 2)") }
        let requests: [AnyFetchRequest<Player>] = [
            AnyFetchRequest(Player.order(Column("score").desc)),
            AnyFetchRequest(SQLRequest<Player>(sql: "SELECT * FROM player ORDER BY score DESC")),
        ]
        try dbQueue.read { db in
            for request in requests {
                XCTAssertEqual(try request.fetchAll(db).map(\.name), ["B", "A"])
                XCTAssertEqual(try request.fetchCount(db), 2)
                XCTAssertEqual(try request.asRequest(of: Row.self).fetchOne(db)?["name"] as String?, "B")
                XCTAssertEqual(try request.databaseRegion(db).description, try Player.all().databaseRegion(db).description)
            }
        }
    }

    struct Scored: TableRecord {
        static let databaseTableName = "player"
        enum Columns {
            static let name = Column("name")
            static let score = Column("score")
        }
    }

    /// The forms GRDB apps write: closures, compound assignment operators, conflict clauses.
    func testUpdateAllAssignmentForms() throws {
        let dbQueue = try makePlayerDatabase()
        let recorder = SQLRecorder()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (name, score) VALUES ('A', 1), ('B', 2)")
            func scores() throws -> [Int] { try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id") }
            XCTAssertEqual(try Scored.updateAll(db) { $0.score += 10 }, 2)
            XCTAssertEqual(try scores(), [11, 12])
            try Scored.filter(Column("name") == "A").updateAll(db) { $0.score -= 1 }
            XCTAssertEqual(try scores(), [10, 12])
            try Scored.updateAll(db) { [$0.score *= 2, $0.name.set(to: "X")] }
            XCTAssertEqual(try scores(), [20, 24])
            try Scored.updateAll(db) { $0.score /= 4 }
            XCTAssertEqual(try scores(), [5, 6])
            try Scored.updateAll(db) { $0.score |= 8 }
            XCTAssertEqual(try scores(), [13, 14])
            try Scored.updateAll(db) { $0.score &= 6 }
            XCTAssertEqual(try scores(), [4, 6])
            try Scored.updateAll(db) { $0.score <<= 1 }
            XCTAssertEqual(try scores(), [8, 12])
            try Scored.updateAll(db) { $0.score >>= 2 }
            XCTAssertEqual(try scores(), [2, 3])
            XCTAssertEqual(try Scored.updateAll(db, []), 0, "no assignment, no statement")
            db.record(into: recorder)
            try Scored.updateAll(db, onConflict: .ignore, Column("score").set(to: 0))
            try Scored.all().updateAll(db, onConflict: .replace) { $0.score.set(to: 7) }
            XCTAssertEqual(try scores(), [7, 7])
        }
        let updates = recorder.statements.filter { $0.hasPrefix("UPDATE") }
        XCTAssertEqual(updates.count, 2, "\(recorder.statements)")
        XCTAssertTrue(updates.first?.hasPrefix("UPDATE OR IGNORE") ?? false, "\(updates)")
        XCTAssertTrue(updates.last?.hasPrefix("UPDATE OR REPLACE") ?? false, "\(updates)")
    }

    func testCompositeAndWithoutRowIDPrimaryKeys() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE citizenship (citizenId INTEGER, countryCode TEXT, PRIMARY KEY (citizenId, countryCode)) WITHOUT ROWID;
                    INSERT INTO citizenship VALUES (1, 'FR'), (1, 'US'), (2, 'FR');
                    CREATE TABLE note (body TEXT);
                    INSERT INTO note (body) VALUES ('a'), ('b');
                    CREATE TABLE code (code TEXT PRIMARY KEY, label TEXT);
                    INSERT INTO code VALUES ('x', 'X'), ('y', 'Y');
                    """)
            let pk = try db.primaryKey("citizenship")
            XCTAssertEqual(pk.columns, ["citizenId", "countryCode"])
            XCTAssertTrue(pk.isWithoutRowID)
            XCTAssertNil(pk.rowIDColumn)
            XCTAssertEqual(try Table("citizenship").filter(key: ["citizenId": 1, "countryCode": "US"]).fetchCount(db), 1)
            XCTAssertEqual(
                try Table("citizenship").all().filter(keys: [["citizenId": 1, "countryCode": "US"], ["citizenId": 2, "countryCode": "FR"]])
                    .fetchCount(db), 2)
            let composite = assertDatabaseError(.SQLITE_ERROR) { try Table("citizenship").filter(key: 1).fetchAll(db) }
            XCTAssertTrue(composite?.message?.contains("composite primary key") ?? false)
            // A table without explicit primary key: the rowid.
            // (No alias column, as in GRDB: the primary key is the rowid, named `rowid`.)
            XCTAssertNil(try db.primaryKey("note").rowIDColumn)
            XCTAssertTrue(try db.primaryKey("note").isRowID)
            XCTAssertEqual(try db.primaryKey("note").columns, ["rowid"])
            XCTAssertEqual(try Table("note").filter(key: 2).fetchOne(db)?["body"] as? String, "b")
            // A non-integer single-column primary key.
            XCTAssertNil(try db.primaryKey("code").rowIDColumn)
            XCTAssertEqual(try Table("code").filter(key: "y").fetchOne(db)?["label"] as? String, "Y")
        }
    }

    func testBadInputThrowsClearErrors() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE VIEW bestPlayer AS SELECT * FROM player ORDER BY score DESC LIMIT 1")
            let missingColumn = assertDatabaseError(.SQLITE_ERROR) { try Player.filter(Column("nope") == 1).fetchAll(db) }
            XCTAssertEqual(missingColumn?.message, "no such column: nope")
            XCTAssertEqual(missingColumn?.sql, #"SELECT * FROM "player" WHERE "nope" = ?"#)
            let view = assertDatabaseError(.SQLITE_ERROR) { try Table("bestPlayer").filter(key: 1).fetchAll(db) }
            XCTAssertTrue(view?.message?.contains("has no primary key") ?? false, "\(String(describing: view))")
            let missingTable = assertDatabaseError(.SQLITE_ERROR) { try Table("nope").filter(key: 1).fetchAll(db) }
            XCTAssertEqual(missingTable?.message, "no such table: nope")
            let notAKey = assertDatabaseError(.SQLITE_ERROR) { try Player.filter(key: ["name": "Arthur"]).fetchAll(db) }
            XCTAssertTrue(notAKey?.message?.contains("no unique key on name") ?? false, "\(String(describing: notAKey))")
            let unknownKeyColumn = assertDatabaseError(.SQLITE_ERROR) { try Player.filter(key: ["nope": 1]).fetchAll(db) }
            XCTAssertEqual(unknownKeyColumn?.message, "table player has no column nope")
        }
    }

    func testUniqueKeyDictionary() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE user (id INTEGER PRIMARY KEY, email TEXT UNIQUE); INSERT INTO user (email) VALUES ('a@x'), ('b@x')")
            XCTAssertEqual(try Table("user").filter(key: ["email": "b@x"]).fetchOne(db)?["id"] as? Int64, 2)
        }
    }

    func testExistenceOfNoKeyAsksNothing() throws {
        struct Item: TableRecord, Identifiable { var id: Int64? }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY); INSERT INTO item DEFAULT VALUES")
            var statements: [String] = []
            db.trace { statements.append("\($0)") }
            XCTAssertFalse(try Item.exists(db, id: nil))
            XCTAssertFalse(try Item.exists(db, key: Int64?.none))
            XCTAssertEqual(statements, [])
            XCTAssertTrue(try Item.exists(db, id: 1))
            XCTAssertEqual(statements.last, #"SELECT EXISTS (SELECT * FROM "item" WHERE "id" = ?)"#)
            db.trace(options: [])
        }
    }

    func testKeyDictionaryMayHoldMoreThanAUniqueKeyAndNameTheHiddenRowID() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE pair (a, b, c, UNIQUE (c, b));
                    INSERT INTO pair (a, b, c) VALUES (1, 2, 3), (4, 5, 6);
                    """)
            var statements: [String] = []
            db.trace { statements.append("\($0)") }
            // The unique key's columns come first, in the key's order, then the others.
            XCTAssertEqual(try Table("pair").filter(key: ["a": 1, "b": 2, "c": 3]).fetchCount(db), 1)
            XCTAssertEqual(statements.last, #"SELECT COUNT(*) FROM "pair" WHERE ("c" = ?) AND ("b" = ?) AND ("a" = ?)"#)
            // A table with a hidden rowid is filtered by it.
            XCTAssertEqual(try Table("pair").filter(key: ["rowid": 2]).fetchOne(db)?["a"] as? Int64, 4)
            XCTAssertEqual(statements.last, #"SELECT * FROM "pair" WHERE "rowid" = ?"#)
            XCTAssertEqual(try Table("pair").filter(key: ["ROWID": 2, "a": 4]).fetchCount(db), 1)
            db.trace(options: [])
            let notAKey = assertDatabaseError(.SQLITE_ERROR) { try Table("pair").filter(key: ["a": 1, "b": 2]).fetchAll(db) }
            XCTAssertEqual(notAKey?.message, "table pair has no unique key on a, b; its primary key is rowid")
        }
    }

    func testTableNameDefaults() {
        struct HTTPRequest: TableRecord {}
        struct URL: TableRecord {}
        struct playerScore: TableRecord {}
        XCTAssertEqual(Player.databaseTableName, "player")
        XCTAssertEqual(HTTPRequest.databaseTableName, "httpRequest")
        XCTAssertEqual(URL.databaseTableName, "url")
        XCTAssertEqual(playerScore.databaseTableName, "playerScore")
    }
}
