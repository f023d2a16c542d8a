import Ripple
import XCTest

/// `belongsTo(...).unique()`, and the clauses of a `belongsTo` column in GRDB's order.
final class BelongsToUniqueTests: XCTestCase {
    func testAUniqueForeignKeyIsUniqueAndNotIndexedTwice() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "parent") { t in t.column("name", .text) }
            try db.create(table: "player") { t in t.belongsTo("team").notNull().unique() }
            // A hidden rowid is named, as GRDB names it (SQLite refuses it as a parent key
            // once rows are inserted: declare the parent's primary key).
            try db.create(table: "child") { t in t.belongsTo("parent") }
            XCTAssertEqual(
                try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'player'"),
                #"CREATE TABLE "player" ("teamId" INTEGER NOT NULL UNIQUE REFERENCES "team"("id"))"#)
            XCTAssertEqual(
                try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'child'"),
                #"CREATE TABLE "child" ("parentId" INTEGER REFERENCES "parent"("rowid"))"#)
            try db.execute(sql: "INSERT INTO team DEFAULT VALUES")
            try db.execute(sql: "INSERT INTO player (teamId) VALUES (1)")
            XCTAssertThrowsError(try db.execute(sql: "INSERT INTO player (teamId) VALUES (1)"), "unique")
            XCTAssertEqual(Set(try db.indexes(on: "player").map(\.name)).contains("player_on_teamId"), false)
        }
    }

    func testAUniqueCompositeForeignKeyHasAUniqueIndex() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "a") { t in
                t.primaryKey {
                    t.column("x")
                    t.column("y")
                }
            }
            try db.create(table: "c") { t in t.belongsTo("a").unique() }
            let index = try XCTUnwrap(try db.indexes(on: "c").first { $0.name == "index_c_on_aX_aY" })
            XCTAssertTrue(index.isUnique)
            XCTAssertEqual(index.columns, ["aX", "aY"])
        }
    }

    /// `belongsTo` in `t.primaryKey { ... }`: its columns are part of the primary key, not
    /// null, and not indexed (the primary key is an index).
    func testBelongsToInAPrimaryKey() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "composite") { t in
                t.primaryKey {
                    t.column("a", .text)
                    t.column("b", .text)
                }
            }
            var statements: [String] = []
            db.trace { statements.append($0.description) }
            try db.create(table: "compositeChild") { t in
                t.primaryKey {
                    t.belongsTo("composite")
                    t.column("rank", .integer)
                }
            }
            XCTAssertEqual(
                statements.filter { $0.hasPrefix("CREATE") },
                [
                    #"CREATE TABLE "compositeChild" ("compositeA" TEXT NOT NULL, "compositeB" TEXT NOT NULL, "rank" INTEGER NOT NULL, "#
                        + #"PRIMARY KEY ("compositeA", "compositeB", "rank"), FOREIGN KEY ("compositeA", "compositeB") REFERENCES "composite"("a", "b"))"#
                ])
            XCTAssertEqual(try db.primaryKey("compositeChild").columns, ["compositeA", "compositeB", "rank"])
        }
    }

    /// A table that refers to itself, with a composite primary key of untyped columns: the
    /// foreign key columns have no type either.
    func testSelfReferenceWithACompositePrimaryKey() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            var statements: [String] = []
            db.trace { statements.append($0.description) }
            try db.create(table: "employee") { t in
                t.primaryKey {
                    t.column("left")
                    t.column("right")
                }
                t.belongsTo("manager", inTable: "employee")
            }
            XCTAssertEqual(
                statements.filter { $0.hasPrefix("CREATE") },
                [
                    #"CREATE TABLE "employee" ("left" NOT NULL, "right" NOT NULL, "managerLeft", "managerRight", PRIMARY KEY ("left", "right"), "#
                        + #"FOREIGN KEY ("managerLeft", "managerRight") REFERENCES "employee"("left", "right"))"#,
                    #"CREATE INDEX "index_employee_on_managerLeft_managerRight" ON "employee"("managerLeft", "managerRight")"#,
                ])
        }
    }
}
