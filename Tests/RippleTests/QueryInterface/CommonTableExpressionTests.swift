import Foundation
import XCTest

@testable import Ripple

/// `CommonTableExpression` and `with(_:)`: the `WITH` clause of selections, deletions and
/// updates, and the region that observation tracks.
final class CommonTableExpressionTests: XCTestCase {
    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INT);
                    CREATE TABLE other (id INTEGER PRIMARY KEY);
                    INSERT INTO player VALUES (1, 'Arthur', 100), (2, 'Barbara', 200);
                    """)
        }
        return dbQueue
    }

    func testSelectionFromACTEWithArgumentsAndColumns() throws {
        let dbQueue = try makeQueue()
        let cte = CommonTableExpression(named: "answer", columns: ["value", "label"], sql: "SELECT ?, ?", arguments: [42, "x"])
        let request = cte.all().filter(Column("value") > 0).with(cte)
        try dbQueue.read { db in
            XCTAssertEqual(
                try request.makeSQL(db).sql,
                #"WITH "answer"("value", "label") AS (SELECT ?, ?) SELECT * FROM "answer" WHERE "value" > ?"#)
            XCTAssertEqual(try request.fetchOne(db), ["value": 42, "label": "x"])
        }
    }

    func testRecursiveCTE() throws {
        let dbQueue = try makeQueue()
        let counter = CommonTableExpression<Int>(
            recursive: true, named: "counter", columns: ["x"],
            literal: "VALUES(\(1)) UNION ALL SELECT x+1 FROM counter WHERE x < \(5)")
        try dbQueue.read { db in
            XCTAssertEqual(try counter.all().with(counter).fetchAll(db), [1, 2, 3, 4, 5])
        }
    }

    func testCTEOfAQueryInterfaceRequestAndReplacement() throws {
        let dbQueue = try makeQueue()
        let best = CommonTableExpression(named: "best", request: Table<Row>("player").filter(Column("score") > 150).select(Column("name")))
        let other = CommonTableExpression(named: "best", sql: "SELECT 'nobody' AS name")
        try dbQueue.read { db in
            XCTAssertEqual(try String.fetchAll(db, best.all().with(best)), ["Barbara"])
            // The last expression of a name wins.
            XCTAssertEqual(try String.fetchAll(db, best.all().with(best).with(other)), ["nobody"])
            XCTAssertEqual(try best.all().with(best).fetchCount(db), 1)
            XCTAssertEqual(try Table<Row>("player").with(best).filter(best.contains(Column("name"))).fetchCount(db), 1)
        }
    }

    func testInterpolationInSQLLiterals() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db in
            let cte = CommonTableExpression(named: "cte", columns: ["name", "score"], literal: "SELECT \("O'Brien"), 12")
            let request: SQLRequest<Row> = "WITH \(definitionFor: cte) SELECT * FROM \(cte)"
            XCTAssertEqual(request.sql, #"WITH "cte"("name", "score") AS (SELECT ?, 12) SELECT * FROM "cte""#)
            XCTAssertEqual(try request.fetchOne(db), ["name": "O'Brien", "score": 12])
            // Without columns, and from a query interface request written without the schema.
            let best = CommonTableExpression(
                named: "best", columns: [], request: Table("player").filter(Column("score") > 150).select(Column("name")))
            let names: SQLRequest<String> = "WITH \(definitionFor: best) \(best.all())"
            XCTAssertEqual(names.sql, #"WITH "best" AS (SELECT "name" FROM "player" WHERE "score" > ?) SELECT * FROM "best""#)
            XCTAssertEqual(try names.fetchAll(db), ["Barbara"])
            // A request that needs the schema fails to compile, with an error that says so.
            let keyed = CommonTableExpression(named: "keyed", request: Table("player").filter(key: 1))
            let failing: SQLRequest<Row> = "WITH \(definitionFor: keyed) SELECT * FROM \(keyed)"
            XCTAssertThrowsError(try failing.fetchAll(db)) { error in
                XCTAssertTrue("\(error)".contains("ripple:"), "\(error)")
            }
        }
    }

    func testDeleteAndUpdateWithCTE() throws {
        let dbQueue = try makeQueue()
        let losers = CommonTableExpression(named: "losers", sql: "SELECT id FROM player WHERE score < ?", arguments: [150])
        try dbQueue.write { db in
            let updated = try Table<Row>("player").all().with(losers)
                .filter(losers.contains(Column("id")))
                .updateAll(db, Column("score").set(to: 0))
            XCTAssertEqual(updated, 1)
            XCTAssertEqual(try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id"), [0, 200])
            let deleted = try Table<Row>("player").all().with(losers).filter(losers.contains(Column("id"))).deleteAll(db)
            XCTAssertEqual(deleted, 1)
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT name FROM player"), ["Barbara"])
        }
    }

    func testObservationOfACTERequestTracksTheTablesItReads() throws {
        let dbQueue = try makeQueue()
        let names = CommonTableExpression(named: "names", request: Table<Row>("player").select(Column("name")))
        let request = names.all().with(names).asRequest(of: String.self)
        let queue = DispatchQueue(label: "values")
        let collector = ValueCollector<[String]>()
        let cancellable = ValueObservation.tracking { db in try request.fetchAll(db) }
            .start(in: dbQueue, scheduling: .async(onQueue: queue), onError: { XCTFail("\($0)") }, onChange: collector.append)
        XCTAssertEqual(collector.wait(for: 1), [["Arthur", "Barbara"]])
        // A change to another table notifies nothing: the next value is the player's change.
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO other DEFAULT VALUES") }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')") }
        XCTAssertEqual(collector.wait(for: 2), [["Arthur", "Barbara"], ["Arthur", "Barbara", "Craig"]])
        cancellable.cancel()
    }
}
