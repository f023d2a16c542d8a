import Foundation
import XCTest

@testable import Ripple

final class SchemaDefinitionTests: XCTestCase {
    private func sql(of name: String, _ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [name])
    }

    func testCreateTableWithColumnsAndModifiers() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "place") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text)
                t.column("favorite", .boolean).notNull().defaults(to: false)
                t.column("name", .text).notNull().defaults(to: "Anonymous").collate(.nocase)
                t.column("score", .integer).check { $0 >= 0 }.indexed()
                t.column("email", .text).unique(onConflict: .replace)
                t.column("created", .datetime).defaults(sql: "CURRENT_TIMESTAMP")
                t.column("doubled", .integer).generatedAs(Column("score") * 2)
            }
            XCTAssertEqual(
                try sql(of: "place", db),
                """
                CREATE TABLE "place" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "title" TEXT, \
                "favorite" BOOLEAN NOT NULL DEFAULT 0, "name" TEXT NOT NULL DEFAULT 'Anonymous' COLLATE NOCASE, \
                "score" INTEGER CHECK ("score" >= 0), "email" TEXT UNIQUE ON CONFLICT REPLACE, \
                "created" DATETIME DEFAULT CURRENT_TIMESTAMP, "doubled" INTEGER GENERATED ALWAYS AS ("score" * 2) VIRTUAL)
                """)
            XCTAssertEqual(try db.indexes(on: "place").first { $0.origin == .createIndex }?.columns, ["score"])
            try db.execute(sql: "INSERT INTO place (score) VALUES (3)")
            let row = try Row.fetchOne(db, sql: "SELECT favorite, name, doubled FROM place")!
            XCTAssertEqual(row["favorite"] as Bool, false)
            XCTAssertEqual(row["name"] as String, "Anonymous")
            XCTAssertEqual(row["doubled"] as Int, 6)
            assertDatabaseError(.SQLITE_CONSTRAINT_CHECK) { try db.execute(sql: "INSERT INTO place (score) VALUES (-1)") }
        }
    }

    func testPrimaryKeysUniqueKeysAndTableOptions() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "country", options: .withoutRowID) { t in
                t.primaryKey("code", .text)
                t.column("name", .text)
            }
            XCTAssertEqual(try sql(of: "country", db), #"CREATE TABLE "country" ("code" TEXT PRIMARY KEY NOT NULL, "name" TEXT) WITHOUT ROWID"#)
            try db.create(table: "membership", options: [.ifNotExists, .strict]) { t in
                t.primaryKey {
                    t.column("teamName", .text)
                    t.column("position", .integer)
                }
                t.column("a", .integer)
                t.column("b", .integer)
                t.uniqueKey(["a", "b"], onConflict: .ignore)
                t.check(sql: "a < b")
            }
            XCTAssertEqual(
                try sql(of: "membership", db),
                """
                CREATE TABLE "membership" ("teamName" TEXT NOT NULL, "position" INTEGER NOT NULL, "a" INTEGER, "b" INTEGER, \
                PRIMARY KEY ("teamName", "position"), UNIQUE ("a", "b") ON CONFLICT IGNORE, CHECK (a < b)) STRICT
                """)
            XCTAssertEqual(try db.primaryKey("membership").columns, ["teamName", "position"])
            // IF NOT EXISTS: no error the second time.
            try db.create(table: "membership", options: .ifNotExists) { t in t.column("x") }
        }
    }

    func testColumnClausesAreWrittenInGRDBsOrder() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "parent") { t in t.primaryKey("name", .text) }
            try db.create(table: "pkless") { t in t.column("a") }
            try db.create(table: "child") { t in
                t.column("a", .text).defaults(to: "x").collate(.nocase).unique(onConflict: .abort).notNull(onConflict: .abort)
                t.column("b", .integer).defaults(to: Int?.none).check { $0 > 0 }.notNull(onConflict: .fail)
                t.column("c", .datetime).defaults(sql: "CURRENT_TIMESTAMP")
                t.column("d", .integer).defaults(sql: "1 + 1")
                // The referenced primary key is named, the hidden rowid too.
                t.column("parentName", .text).references("parent", onDelete: .cascade)
                t.column("pklessRowID", .integer).references("pkless")
                // A table that does not exist yet: the reference names no column.
                t.column("laterID", .integer).references("later")
            }
            XCTAssertEqual(
                try sql(of: "child", db),
                """
                CREATE TABLE "child" ("a" TEXT NOT NULL UNIQUE DEFAULT 'x' COLLATE NOCASE, \
                "b" INTEGER NOT NULL ON CONFLICT FAIL CHECK ("b" > 0) DEFAULT NULL, \
                "c" DATETIME DEFAULT CURRENT_TIMESTAMP, "d" INTEGER DEFAULT (1 + 1), \
                "parentName" TEXT REFERENCES "parent"("name") ON DELETE CASCADE, \
                "pklessRowID" INTEGER REFERENCES "pkless"("rowid"), "laterID" INTEGER REFERENCES "later")
                """)
            var statements: [String] = []
            db.trace { statements.append("\($0)") }
            try db.alter(table: "parent") { t in
                t.add(column: "parentName", .text).references("parent")
                t.rename(column: "parentName", to: "mother")
                t.add(column: "father", .text).references("parent")
            }
            db.trace(options: [])
            XCTAssertEqual(
                statements.filter { $0.hasPrefix("ALTER") },
                [
                    #"ALTER TABLE "parent" ADD COLUMN "parentName" TEXT REFERENCES "parent"("name")"#,
                    #"ALTER TABLE "parent" RENAME COLUMN "parentName" TO "mother""#,
                    #"ALTER TABLE "parent" ADD COLUMN "father" TEXT REFERENCES "parent"("name")"#,
                ])
            try db.create(view: "childView", columns: ["x"], as: SQLRequest<Row>(sql: "SELECT a FROM child"))
            XCTAssertEqual(try sql(of: "childView", db), #"CREATE VIEW "childView" ("x") AS SELECT a FROM child"#)
        }
    }

    func testAClauseOfOneKindIsWrittenOnce() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "t") { t in
                t.primaryKey("uuid", .text).notNull(onConflict: .replace)
                t.column("a").defaults(to: 1).defaults(to: 2).check(sql: "a > 0").check(sql: "a < 9")
            }
            XCTAssertEqual(
                try sql(of: "t", db),
                #"CREATE TABLE "t" ("uuid" TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE, "a" CHECK (a > 0) CHECK (a < 9) DEFAULT 2)"#)
            try db.create(table: "u") { t in
                t.primaryKey { t.column("a", .text).notNull(onConflict: .replace) }
            }
            XCTAssertEqual(try sql(of: "u", db), #"CREATE TABLE "u" ("a" TEXT NOT NULL ON CONFLICT REPLACE, PRIMARY KEY ("a"))"#)
        }
    }

    func testBelongsToAndForeignKeys() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "country") { t in t.primaryKey("code", .text) }
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("team", onDelete: .cascade)
                t.belongsTo("country").notNull()
                t.column("coachId", .integer).references("player", onDelete: .setNull)
            }
            // In the order of declaration, as in GRDB 7.
            XCTAssertEqual(
                try sql(of: "player", db),
                """
                CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, \
                "teamId" INTEGER REFERENCES "team"("id") ON DELETE CASCADE, "countryCode" TEXT NOT NULL REFERENCES "country"("code"), \
                "coachId" INTEGER REFERENCES "player"("id") ON DELETE SET NULL)
                """)
            XCTAssertEqual(Set(try db.indexes(on: "player").flatMap(\.columns)), ["teamId", "countryCode"])
            XCTAssertEqual(Set(try db.indexes(on: "player").map(\.name)), ["player_on_teamId", "player_on_countryCode"], "GRDB 7's names")
            let keys = try db.foreignKeys(on: "player")
            XCTAssertEqual(Set(keys.map(\.destinationTable)), ["team", "country", "player"])
            XCTAssertEqual(keys.first { $0.destinationTable == "player" }?.destinationColumns, ["id"])
            XCTAssertEqual(keys.first { $0.destinationTable == "country" }?.mapping.map(\.origin), ["countryCode"])
        }
    }

    func testAlterAddColumnWrittenByHand() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in t.autoIncrementedPrimaryKey("id") }
            let defaultName = "O'Brien"
            try db.alter(table: "player") { t in
                t.addColumn(sql: "bonus INTEGER")
                t.addColumn(literal: "name TEXT DEFAULT \(defaultName)")
                t.add(column: "score", .integer)
            }
            XCTAssertEqual(try db.columns(in: "player").map(\.name), ["id", "bonus", "name", "score"])
            XCTAssertEqual(try db.columns(in: "player").first { $0.name == "name" }?.defaultValueSQL, "'O''Brien'")
            try db.execute(sql: "INSERT INTO player DEFAULT VALUES")
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT name FROM player"), "O'Brien")
            // Named arguments have no place in a column definition.
            XCTAssertThrowsError(try db.alter(table: "player") { t in t.addColumn(literal: SQL(sql: "x TEXT DEFAULT :a", arguments: ["a": 1])) }) {
                XCTAssertEqual(($0 as? DatabaseError)?.resultCode, .SQLITE_MISUSE)
            }
        }
    }

    func testAlterRenameDropAndIndexes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "referer") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("url", .text)
                t.column("score", .integer)
            }
            try db.rename(table: "referer", to: "referrer")
            try db.alter(table: "referrer") { t in
                t.add(column: "hasBonus", .boolean).notNull().defaults(to: true)
                t.rename(column: "url", to: "homeURL")
                t.drop(column: "score")
            }
            XCTAssertEqual(try db.columns(in: "referrer").map(\.name), ["id", "homeURL", "hasBonus"])
            try db.create(index: "byURL", on: "referrer", columns: ["homeURL"], options: [.unique, .ifNotExists])
            try db.create(index: "bonus", on: "referrer", columns: ["id"], condition: Column("hasBonus") == true)
            XCTAssertEqual(try sql(of: "bonus", db), #"CREATE INDEX "bonus" ON "referrer"("id") WHERE "hasBonus" = 1"#)
            XCTAssertEqual(try db.indexes(on: "referrer").first { $0.name == "byURL" }?.isUnique, true)
            try db.drop(index: "bonus")
            try db.drop(table: "referrer")
            XCTAssertFalse(try db.tableExists("referrer"))
            assertDatabaseError(.SQLITE_ERROR) { try db.indexes(on: "referrer") }
        }
    }

    func testViewsAndTriggersIntrospection() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
                t.column("score", .integer)
            }
            try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Arthur', 1500), ('Barbara', 800), ('it''s me', 2000)")
            try db.create(view: "hero", as: Table<Row>("player").filter(Column("score") > 1000 && Column("name") != "Barbara"))
            XCTAssertTrue(try db.viewExists("hero"))
            XCTAssertFalse(try db.viewExists("player"))
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT name FROM hero ORDER BY name"), ["Arthur", "it's me"])
            try db.execute(sql: "CREATE TEMPORARY TRIGGER t AFTER INSERT ON player BEGIN SELECT 1; END")
            XCTAssertTrue(try db.triggerExists("T"))
            XCTAssertFalse(try db.triggerExists("u"))
            try db.drop(view: "hero")
            XCTAssertFalse(try db.viewExists("hero"))
        }
    }

    func testRawSQLWithArgumentsInSchemaStatements() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "t") { t in t.column("score", .integer) }
            try db.create(index: "high", on: "t", columns: ["score"], condition: SQLExpression(sql: "score > ?", arguments: [10]))
            XCTAssertEqual(try sql(of: "high", db), #"CREATE INDEX "high" ON "t"("score") WHERE score > 10"#)
        }
    }

    func testLiteralsInSchemaStatements() {
        XCTAssertEqual(DatabaseValue.null.sqlLiteral, "NULL")
        XCTAssertEqual(1.databaseValue.sqlLiteral, "1")
        XCTAssertEqual(1.5.databaseValue.sqlLiteral, "1.5")
        XCTAssertEqual("it's".databaseValue.sqlLiteral, "'it''s'")
        XCTAssertEqual(Data([0, 255]).databaseValue.sqlLiteral, "X'00FF'")
    }

    func testColumnInfos() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE player(
                      id INTEGER PRIMARY KEY,
                      name TEXT NOT NULL DEFAULT 'Anonymous',
                      score int DEFAULT 0,
                      creationDate DATETIME DEFAULT CURRENT_TIMESTAMP,
                      misc,
                      doubled INTEGER GENERATED ALWAYS AS (score * 2))
                    """)
            let columns = try db.columns(in: "player")
            XCTAssertEqual(columns.map(\.name), ["id", "name", "score", "creationDate", "misc", "doubled"])
            // (The casing of types depends on the SQLite version.)
            XCTAssertEqual(columns.map { $0.type.uppercased() }, ["INTEGER", "TEXT", "INT", "DATETIME", "", "INTEGER"])
            XCTAssertEqual(columns.map { $0.columnType?.rawValue.uppercased() }, ["INTEGER", "TEXT", "INT", "DATETIME", nil, "INTEGER"])
            XCTAssertEqual(columns.map(\.isNotNull), [false, true, false, false, false, false])
            XCTAssertEqual(columns.map(\.defaultValueSQL), [nil, "'Anonymous'", "0", "CURRENT_TIMESTAMP", nil, nil])
            XCTAssertEqual(columns.map(\.primaryKeyIndex), [1, 0, 0, 0, 0, 0])
            assertDatabaseError(.SQLITE_ERROR) { try db.columns(in: "missing") }
        }
    }

    func testTableExistsSeesTemporaryTables() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            XCTAssertFalse(try db.tableExists("scratch"))
            try db.execute(sql: "CREATE TEMPORARY TABLE scratch(a)")
            XCTAssertTrue(try db.tableExists("scratch"))
            XCTAssertTrue(try db.tableExists("SCRATCH"))
            XCTAssertEqual(try db.columns(in: "scratch").map(\.name), ["a"])
            try db.execute(sql: "CREATE TEMPORARY VIEW v AS SELECT 1")
            XCTAssertFalse(try db.tableExists("v"))
            XCTAssertTrue(try db.viewExists("v"))
        }
    }
}
