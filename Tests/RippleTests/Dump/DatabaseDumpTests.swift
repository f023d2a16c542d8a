import Foundation
import XCTest

@testable import Ripple

/// The dumps print exactly what GRDB 7.10's print (the expected texts are those of GRDB's
/// `DatabaseDumpTests`), read one state of the database, write nothing, and never show
/// Ripple's own tables.
final class DatabaseDumpTests: XCTestCase {
    /// A stream whose text is kept (a class: the dumps copy the stream they are given).
    private final class TextStream: TextOutputStream {
        var text = ""
        func write(_ string: String) { text += string }
    }

    /// What `body` prints to `stream`.
    private func output(_ body: (TextStream) throws -> Void) rethrows -> String {
        let stream = TextStream()
        try body(stream)
        return stream.text
    }

    // MARK: - Support

    /// One row for each kind of value: (name, value), in the order of names.
    private func makeValuesDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                literal: """
                    CREATE TABLE value(name, value);
                    INSERT INTO value VALUES ('blob: ascii long', CAST('\(sql: Self.lorem)' AS BLOB));
                    INSERT INTO value VALUES ('blob: ascii short', CAST('Hello' AS BLOB));
                    INSERT INTO value VALUES ('blob: ascii tab', CAST('['||char(9)||']' AS BLOB));
                    INSERT INTO value VALUES ('blob: ascii line feed', CAST('['||char(10)||']' AS BLOB));
                    INSERT INTO value VALUES ('blob: ascii apostrophe', CAST('['']' AS BLOB));
                    INSERT INTO value VALUES ('blob: ascii double quote', CAST('["]' AS BLOB));
                    INSERT INTO value VALUES ('blob: binary short', X'80');
                    INSERT INTO value VALUES ('blob: empty', x'');
                    INSERT INTO value VALUES ('blob: utf8 short', CAST('您好🙂' AS BLOB));
                    INSERT INTO value VALUES ('blob: uuid', x'69BF8A9CD9F04777BD1193451D84CBCF');
                    INSERT INTO value VALUES ('double: -1.0', -1.0);
                    INSERT INTO value VALUES ('double: 0.0', 0.0);
                    INSERT INTO value VALUES ('double: 123.45', 123.45);
                    INSERT INTO value VALUES ('double: nan', \(Double.nan));
                    INSERT INTO value VALUES ('integer: 0', 0);
                    INSERT INTO value VALUES ('integer: -1', -1);
                    INSERT INTO value VALUES ('integer: 123', 123);
                    INSERT INTO value VALUES ('integer: max', 9223372036854775807);
                    INSERT INTO value VALUES ('integer: min', -9223372036854775808);
                    INSERT INTO value VALUES ('null', NULL);
                    INSERT INTO value VALUES ('text: empty', '');
                    INSERT INTO value VALUES ('text: ascii apostrophe', '['']');
                    INSERT INTO value VALUES ('text: ascii backslash', '[\\]');
                    INSERT INTO value VALUES ('text: ascii double quote', '["]');
                    INSERT INTO value VALUES ('text: ascii long', '\(sql: Self.lorem)');
                    INSERT INTO value VALUES ('text: ascii line feed', '['||char(10)||']');
                    INSERT INTO value VALUES ('text: ascii short', 'Hello');
                    INSERT INTO value VALUES ('text: ascii slash', '[/]');
                    INSERT INTO value VALUES ('text: ascii tab', '['||char(9)||']');
                    INSERT INTO value VALUES ('text: ascii url', 'https://github.com/groue/GRDB.swift');
                    INSERT INTO value VALUES ('text: utf8 short', '您好🙂');
                    """)
        }
        return dbQueue
    }

    private static let lorem =
        "Lorem ipsum dolor sit amet, consectetur adipiscing elit. Morbi tristique tempor condimentum. Pellentesque pharetra lacus non ante sollicitudin auctor. Vestibulum sit amet mauris vitae urna non luctus."

    /// Teams and players, with the schema GRDB's tests make with `create(table:)`.
    private func makeRugbyDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE "team" ("id" TEXT PRIMARY KEY NOT NULL, "name" TEXT NOT NULL, "color" TEXT NOT NULL);
                    CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "teamId" TEXT REFERENCES "team"("id"), "name" TEXT NOT NULL);
                    CREATE INDEX "player_on_teamId" ON "player"("teamId");
                    INSERT INTO team VALUES ('ENG', 'England Rugby', 'white'), ('FRA', 'XV de France', 'blue');
                    INSERT INTO player (teamId, name) VALUES ('FRA', 'Antoine Dupond'), ('ENG', 'Owen Farrell'), (NULL, 'Gwendal Roué');
                    """)
        }
        return dbQueue
    }

    private static let rugbySchema = """
        sqlite_master
        CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "teamId" TEXT REFERENCES "team"("id"), "name" TEXT NOT NULL);
        CREATE INDEX "player_on_teamId" ON "player"("teamId");
        CREATE TABLE "team" ("id" TEXT PRIMARY KEY NOT NULL, "name" TEXT NOT NULL, "color" TEXT NOT NULL);

        """

    private static let players: SQL = "SELECT * FROM player ORDER BY id"
    private static let multipleStatements: SQL = """
        CREATE TABLE t(a, b);
        INSERT INTO t VALUES (1, 'foo');
        INSERT INTO t VALUES (2, 'bar');
        SELECT * FROM t ORDER BY a;
        SELECT b FROM t ORDER BY b;
        SELECT NULL WHERE NULL;
        """

    /// Prints nothing for a query without rows, and for a statement without columns.
    private func assertEmptyResultsPrint(_ format: some DumpFormat, _ expectedForNoRow: String = "", line: UInt = #line) throws {
        try DatabaseQueue().write { db in
            XCTAssertEqual(try output { try db.dumpSQL("SELECT NULL WHERE NULL", format: format, to: $0) }, expectedForNoRow, line: line)
            XCTAssertEqual(try output { try db.dumpSQL("CREATE TABLE t(a)", format: format, to: $0) }, "", line: line)
        }
    }

    // MARK: - Debug

    func testDebugValueFormatting() throws {
        let text = try makeValuesDatabase().read { db in
            try output { try db.dumpSQL("SELECT * FROM value ORDER BY name", format: .debug(), to: $0) }
        }
        XCTAssertEqual(
            text,
            """
            blob: ascii apostrophe|[']
            blob: ascii double quote|["]
            blob: ascii line feed|[
            ]
            blob: ascii long|\(Self.lorem)
            blob: ascii short|Hello
            blob: ascii tab|[\t]
            blob: binary short|X'80'
            blob: empty|
            blob: utf8 short|您好🙂
            blob: uuid|69BF8A9C-D9F0-4777-BD11-93451D84CBCF
            double: -1.0|-1.0
            double: 0.0|0.0
            double: 123.45|123.45
            double: nan|
            integer: -1|-1
            integer: 0|0
            integer: 123|123
            integer: max|9223372036854775807
            integer: min|-9223372036854775808
            null|
            text: ascii apostrophe|[']
            text: ascii backslash|[\\]
            text: ascii double quote|["]
            text: ascii line feed|[
            ]
            text: ascii long|\(Self.lorem)
            text: ascii short|Hello
            text: ascii slash|[/]
            text: ascii tab|[\t]
            text: ascii url|https://github.com/groue/GRDB.swift
            text: empty|
            text: utf8 short|您好🙂

            """)
    }

    func testDebugAndListEmptyResults() throws {
        try assertEmptyResultsPrint(.debug(header: true))
        try assertEmptyResultsPrint(.list(header: true))
        try assertEmptyResultsPrint(.quote(header: true))
        try assertEmptyResultsPrint(.line())
        try assertEmptyResultsPrint(.json(), "[]\n")
    }

    /// Debug and list print the same for texts and numbers: header, separator, NULL.
    func testDebugAndListHeadersSeparatorsAndNulls() throws {
        let dbQueue = try makeRugbyDatabase()
        let formats: [(DebugDumpFormat, ListDumpFormat, String)] = [
            (.debug(header: true), .list(header: true), "id|teamId|name\n1|FRA|Antoine Dupond\n2|ENG|Owen Farrell\n3||Gwendal Roué\n"),
            (.debug(), .list(), "1|FRA|Antoine Dupond\n2|ENG|Owen Farrell\n3||Gwendal Roué\n"),
            (
                .debug(header: true, separator: "---"), .list(header: true, separator: "---"),
                "id---teamId---name\n1---FRA---Antoine Dupond\n2---ENG---Owen Farrell\n3------Gwendal Roué\n"
            ),
            (.debug(nullValue: "NULL"), .list(nullValue: "NULL"), "1|FRA|Antoine Dupond\n2|ENG|Owen Farrell\n3|NULL|Gwendal Roué\n"),
        ]
        try dbQueue.read { db in
            for (debug, list, expected) in formats {
                XCTAssertEqual(try output { try db.dumpSQL(Self.players, format: debug, to: $0) }, expected)
                XCTAssertEqual(try output { try db.dumpSQL(Self.players, format: list, to: $0) }, expected)
                // The header comes with the first row: none without rows.
                XCTAssertEqual(try output { try db.dumpSQL("SELECT * FROM player WHERE 0", format: debug, to: $0) }, "")
            }
        }
    }

    func testDuplicateColumns() throws {
        try DatabaseQueue().read { db in
            let sql: SQL = "SELECT 1 AS name, 'foo' AS name"
            XCTAssertEqual(try output { try db.dumpSQL(sql, format: .debug(header: true), to: $0) }, "name|name\n1|foo\n")
            XCTAssertEqual(try output { try db.dumpSQL(sql, format: .list(header: true), to: $0) }, "name|name\n1|foo\n")
            XCTAssertEqual(try output { try db.dumpSQL(sql, format: .quote(header: true), to: $0) }, "'name','name'\n1,'foo'\n")
            XCTAssertEqual(try output { try db.dumpSQL(sql, format: .json(), to: $0) }, "[{\"name\":1,\"name\":\"foo\"}]\n")
            XCTAssertEqual(try output { try db.dumpSQL(sql, format: .line(), to: $0) }, "name = 1\nname = foo\n")
        }
    }

    /// Each statement prints its rows, with the format's state started anew (the header,
    /// the JSON array, the blank lines of the line format).
    func testMultipleStatements() throws {
        let expectations: [(any DumpFormat, String)] = [
            (DebugDumpFormat(), "1|foo\n2|bar\nbar\nfoo\n"),
            (ListDumpFormat(header: true), "a|b\n1|foo\n2|bar\nb\nbar\nfoo\n"),
            (QuoteDumpFormat(), "1,'foo'\n2,'bar'\n'bar'\n'foo'\n"),
            (JSONDumpFormat(), "[{\"a\":1,\"b\":\"foo\"},\n{\"a\":2,\"b\":\"bar\"}]\n[{\"b\":\"bar\"},\n{\"b\":\"foo\"}]\n[]\n"),
            (LineDumpFormat(), "a = 1\nb = foo\n\na = 2\nb = bar\n\nb = bar\n\nb = foo\n"),
        ]
        for (format, expected) in expectations {
            try DatabaseQueue().write { db in
                XCTAssertEqual(try output { try db.dumpSQL(Self.multipleStatements, format: format, to: $0) }, expected)
            }
        }
    }

    func testArgumentsAreConsumedByTheStatementsInOrder() throws {
        try DatabaseQueue().read { db in
            let text = try output { try db.dumpSQL("SELECT \(1), \("a|b"); SELECT \(nil as Int?)", format: .quote(), to: $0) }
            XCTAssertEqual(text, "1,'a|b'\nNULL\n")
        }
    }

    // MARK: - JSON

    func testJSONValueFormatting() throws {
        let text = try makeValuesDatabase().read { db in
            try output { try db.dumpSQL("SELECT * FROM value ORDER BY name", format: .json(), to: $0) }
        }
        let loremBase64 = Data(Self.lorem.utf8).base64EncodedString()
        XCTAssertEqual(
            text,
            """
            [{"name":"blob: ascii apostrophe","value":"Wydd"},
            {"name":"blob: ascii double quote","value":"WyJd"},
            {"name":"blob: ascii line feed","value":"Wwpd"},
            {"name":"blob: ascii long","value":"\(loremBase64)"},
            {"name":"blob: ascii short","value":"SGVsbG8="},
            {"name":"blob: ascii tab","value":"Wwld"},
            {"name":"blob: binary short","value":"gA=="},
            {"name":"blob: empty","value":""},
            {"name":"blob: utf8 short","value":"5oKo5aW98J+Zgg=="},
            {"name":"blob: uuid","value":"ab+KnNnwR3e9EZNFHYTLzw=="},
            {"name":"double: -1.0","value":-1},
            {"name":"double: 0.0","value":0},
            {"name":"double: 123.45","value":123.45},
            {"name":"double: nan","value":null},
            {"name":"integer: -1","value":-1},
            {"name":"integer: 0","value":0},
            {"name":"integer: 123","value":123},
            {"name":"integer: max","value":9223372036854775807},
            {"name":"integer: min","value":-9223372036854775808},
            {"name":"null","value":null},
            {"name":"text: ascii apostrophe","value":"[']"},
            {"name":"text: ascii backslash","value":"[\\\\]"},
            {"name":"text: ascii double quote","value":"[\\"]"},
            {"name":"text: ascii line feed","value":"[\\n]"},
            {"name":"text: ascii long","value":"\(Self.lorem)"},
            {"name":"text: ascii short","value":"Hello"},
            {"name":"text: ascii slash","value":"[/]"},
            {"name":"text: ascii tab","value":"[\\t]"},
            {"name":"text: ascii url","value":"https://github.com/groue/GRDB.swift"},
            {"name":"text: empty","value":""},
            {"name":"text: utf8 short","value":"您好🙂"}]

            """)
    }

    func testJSONCustomEncoder() throws {
        try DatabaseQueue().write { db in
            try db.execute(
                literal: """
                    CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, value DOUBLE);
                    INSERT INTO t VALUES (1, 'a', 0.0);
                    INSERT INTO t VALUES (2, 'b', \(Double.infinity));
                    INSERT INTO t VALUES (3, 'c', \(-Double.infinity));
                    """)
            let encoder = JSONDumpFormat.defaultEncoder
            encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "much too much", negativeInfinity: "whoops", nan: "")
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let text = try output { try db.dumpSQL("SELECT * FROM t ORDER BY id", format: .json(encoder: encoder), to: $0) }
            XCTAssertEqual(
                text,
                """
                [
                  {
                    "id":1,
                    "name":"a",
                    "value":0
                  },
                  {
                    "id":2,
                    "name":"b",
                    "value":"much too much"
                  },
                  {
                    "id":3,
                    "name":"c",
                    "value":"whoops"
                  }
                ]

                """)
            // The default encoder writes infinities as strings too; a plain encoder throws.
            XCTAssertEqual(try output { try db.dumpSQL("SELECT value FROM t WHERE id = 2", format: .json(), to: $0) }, "[{\"value\":\"inf\"}]\n")
            XCTAssertThrowsError(try db.dumpSQL("SELECT value FROM t WHERE id = 2", format: .json(encoder: JSONEncoder()), to: TextStream()))
        }
    }

    // MARK: - Line

    func testLineValueFormatting() throws {
        let text = try makeValuesDatabase().read { db in
            try output {
                try db.dumpSQL(
                    "SELECT * FROM value WHERE name LIKE 'blob%' OR name IN ('null', 'double: nan', 'text: empty', 'text: ascii line feed', 'integer: min') ORDER BY name",
                    format: .line(), to: $0)
            }
        }
        let uuid = "i\u{fffd}\u{fffd}\u{fffd}\u{fffd}\u{fffd}Gw\u{fffd}\u{11}\u{fffd}E\u{1d}\u{fffd}\u{fffd}\u{fffd}"
        let rows: [(String, String)] = [
            ("blob: ascii apostrophe", "[']"), ("blob: ascii double quote", "[\"]"), ("blob: ascii line feed", "[\n]"),
            ("blob: ascii long", Self.lorem), ("blob: ascii short", "Hello"), ("blob: ascii tab", "[\t]"),
            ("blob: binary short", "\u{fffd}"), ("blob: empty", ""), ("blob: utf8 short", "您好🙂"), ("blob: uuid", uuid),
            ("double: nan", ""), ("integer: min", "-9223372036854775808"), ("null", ""),
            ("text: ascii line feed", "[\n]"), ("text: empty", ""),
        ]
        XCTAssertEqual(text, rows.map { " name = \($0.0)\nvalue = \($0.1)\n" }.joined(separator: "\n"))
    }

    func testLineNullValue() throws {
        try makeRugbyDatabase().read { db in
            let expected = { (null: String) in
                "    id = 1\nteamId = FRA\n  name = Antoine Dupond\n\n    id = 2\nteamId = ENG\n  name = Owen Farrell\n\n    id = 3\nteamId = \(null)\n  name = Gwendal Roué\n"
            }
            XCTAssertEqual(try output { try db.dumpSQL(Self.players, format: .line(), to: $0) }, expected(""))
            XCTAssertEqual(try output { try db.dumpSQL(Self.players, format: .line(nullValue: "NULL"), to: $0) }, expected("NULL"))
        }
    }

    // MARK: - List

    /// The list format prints as debug does, but for blobs that are not UTF-8: as
    /// repaired UTF-8 text, never as a UUID or an SQL literal.
    func testListValueFormatting() throws {
        try makeValuesDatabase().read { db in
            let notUTF8: SQL = "SELECT * FROM value WHERE name IN ('blob: binary short', 'blob: uuid') ORDER BY name"
            XCTAssertEqual(
                try output { try db.dumpSQL(notUTF8, format: .list(), to: $0) },
                """
                blob: binary short|\u{fffd}
                blob: uuid|i\u{fffd}\u{fffd}\u{fffd}\u{fffd}\u{fffd}Gw\u{fffd}\u{11}\u{fffd}E\u{1d}\u{fffd}\u{fffd}\u{fffd}

                """)
            let others: SQL = "SELECT * FROM value WHERE name NOT IN ('blob: binary short', 'blob: uuid') ORDER BY name"
            let list = try output { try db.dumpSQL(others, format: .list(), to: $0) }
            XCTAssertEqual(list, try output { try db.dumpSQL(others, format: .debug(), to: $0) })
            XCTAssertTrue(list.contains("\nblob: utf8 short|您好🙂\n"))
        }
    }

    /// Text and blobs with NUL bytes print whole.
    func testNULBytesArePrinted() throws {
        try DatabaseQueue().read { db in
            let text = try output { try db.dumpSQL("SELECT 'a'||char(0)||'b', CAST('c'||char(0)||'d' AS BLOB)", format: .list(), to: $0) }
            XCTAssertEqual(text, "a\0b|c\0d\n")
        }
    }

    // MARK: - Quote

    func testQuoteValueFormatting() throws {
        let text = try makeValuesDatabase().read { db in
            try output {
                try db.dumpSQL(
                    "SELECT * FROM value WHERE name <> 'blob: ascii long' AND name <> 'text: ascii long' ORDER BY name", format: .quote(), to: $0)
            }
        }
        XCTAssertEqual(
            text,
            """
            'blob: ascii apostrophe',X'5B275D'
            'blob: ascii double quote',X'5B225D'
            'blob: ascii line feed',X'5B0A5D'
            'blob: ascii short',X'48656C6C6F'
            'blob: ascii tab',X'5B095D'
            'blob: binary short',X'80'
            'blob: empty',X''
            'blob: utf8 short',X'E682A8E5A5BDF09F9982'
            'blob: uuid',X'69BF8A9CD9F04777BD1193451D84CBCF'
            'double: -1.0',-1.0
            'double: 0.0',0.0
            'double: 123.45',123.45
            'double: nan',NULL
            'integer: -1',-1
            'integer: 0',0
            'integer: 123',123
            'integer: max',9223372036854775807
            'integer: min',-9223372036854775808
            'null',NULL
            'text: ascii apostrophe','['']'
            'text: ascii backslash','[\\]'
            'text: ascii double quote','["]'
            'text: ascii line feed','[
            ]'
            'text: ascii short','Hello'
            'text: ascii slash','[/]'
            'text: ascii tab','[\t]'
            'text: ascii url','https://github.com/groue/GRDB.swift'
            'text: empty',''
            'text: utf8 short','您好🙂'

            """)
    }

    func testQuoteHeadersAndSeparator() throws {
        try makeRugbyDatabase().read { db in
            XCTAssertEqual(
                try output { try db.dumpSQL(Self.players, format: .quote(header: true), to: $0) },
                "'id','teamId','name'\n1,'FRA','Antoine Dupond'\n2,'ENG','Owen Farrell'\n3,NULL,'Gwendal Roué'\n")
            XCTAssertEqual(
                try output { try db.dumpSQL(Self.players, format: .quote(), to: $0) },
                "1,'FRA','Antoine Dupond'\n2,'ENG','Owen Farrell'\n3,NULL,'Gwendal Roué'\n")
            XCTAssertEqual(
                try output { try db.dumpSQL(Self.players, format: .quote(header: true, separator: "---"), to: $0) },
                "'id'---'teamId'---'name'\n1---'FRA'---'Antoine Dupond'\n2---'ENG'---'Owen Farrell'\n3---NULL---'Gwendal Roué'\n")
        }
    }

    /// SQLite quotes the values; its statements stay out of the application's trace.
    func testQuoteStatementsAreNotTraced() throws {
        try makeRugbyDatabase().read { db in
            let recorder = SQLRecorder()
            db.record(into: recorder)
            _ = try output { try db.dumpSQL(Self.players, format: .quote(header: true), to: $0) }
            XCTAssertEqual(recorder.statements, [Self.players.sql])
        }
    }

    // MARK: - Errors

    func testStatementsBeforeAnErrorArePrinted() throws {
        try DatabaseQueue().read { db in
            let stream = TextStream()
            assertDatabaseError(.SQLITE_ERROR) { try db.dumpSQL("SELECT 'Hello';\nNot sql;", to: stream) }
            XCTAssertEqual(stream.text, "Hello\n")
        }
    }

    // MARK: - Requests

    func testDumpRequest() throws {
        try makeRugbyDatabase().read { db in
            let request = Table("player").filter(Column("teamId") != nil).order(Column("id"))
            XCTAssertEqual(try output { try db.dumpRequest(request, to: $0) }, "1|FRA|Antoine Dupond\n2|ENG|Owen Farrell\n")
            XCTAssertEqual(
                try output { try db.dumpRequest(request, format: .json(), to: $0) },
                """
                [{"id":1,"teamId":"FRA","name":"Antoine Dupond"},
                {"id":2,"teamId":"ENG","name":"Owen Farrell"}]

                """)
            let sqlRequest = SQLRequest<Row>(sql: "SELECT name FROM player WHERE teamId = ?", arguments: ["ENG"])
            XCTAssertEqual(try output { try db.dumpRequest(sqlRequest, to: $0) }, "Owen Farrell\n")
        }
    }

    // MARK: - Tables

    func testDumpTables() throws {
        try makeRugbyDatabase().read { db in
            XCTAssertEqual(try output { try db.dumpTables([], to: $0) }, "")
            // One table: no name, unless asked.
            XCTAssertEqual(try output { try db.dumpTables(["team"], to: $0) }, "ENG|England Rugby|white\nFRA|XV de France|blue\n")
            XCTAssertEqual(
                try output { try db.dumpTables(["team"], tableHeader: .always, to: $0) },
                "team\nENG|England Rugby|white\nFRA|XV de France|blue\n")
            XCTAssertEqual(
                try output { try db.dumpTables(["team", "player"], format: .json(), to: $0) },
                """
                team
                [{"id":"ENG","name":"England Rugby","color":"white"},
                {"id":"FRA","name":"XV de France","color":"blue"}]

                player
                [{"id":1,"teamId":"FRA","name":"Antoine Dupond"},
                {"id":2,"teamId":"ENG","name":"Owen Farrell"},
                {"id":3,"teamId":null,"name":"Gwendal Roué"}]

                """)
        }
    }

    /// Tables are sorted by primary key, whatever it is: rowid, composite, WITHOUT ROWID.
    func testTablesAreSortedByPrimaryKey() throws {
        try DatabaseQueue().write { db in
            try db.execute(
                sql: """
                    CREATE TABLE plain(name);
                    INSERT INTO plain(rowid, name) VALUES (3, 'c'), (1, 'a'), (2, 'b');
                    CREATE TABLE pair(a, b, PRIMARY KEY (b, a)) WITHOUT ROWID;
                    INSERT INTO pair VALUES (1, 'y'), (2, 'x'), (1, 'x');
                    """)
            XCTAssertEqual(try output { try db.dumpTables(["plain", "pair"], to: $0) }, "plain\na\nb\nc\n\npair\n1|x\n2|x\n1|y\n")
        }
    }

    func testViews() throws {
        try makeRugbyDatabase().write { db in
            try db.execute(sql: "CREATE VIEW playerName AS SELECT name FROM player ORDER BY id")
            // The view's order, or a stable one with all columns.
            XCTAssertEqual(try output { try db.dumpTables(["playerName"], to: $0) }, "Antoine Dupond\nOwen Farrell\nGwendal Roué\n")
            XCTAssertEqual(
                try output { try db.dumpTables(["playerName"], stableOrder: true, to: $0) }, "Antoine Dupond\nGwendal Roué\nOwen Farrell\n")
            XCTAssertEqual(
                try output { try db.dumpTables(["playerName"], format: .json(), stableOrder: true, to: $0) },
                "[{\"name\":\"Antoine Dupond\"},\n{\"name\":\"Gwendal Roué\"},\n{\"name\":\"Owen Farrell\"}]\n")
        }
    }

    func testMissingTableThrows() throws {
        try makeRugbyDatabase().read { db in
            for stableOrder in [false, true] {
                let stream = TextStream()
                let error = assertDatabaseError(.SQLITE_ERROR) { try db.dumpTables(["team", "missing"], stableOrder: stableOrder, to: stream) }
                XCTAssertEqual(error?.message, "no such table: missing")
                XCTAssertTrue(stream.text.hasPrefix("team\nENG|"), "tables before it are printed")
            }
        }
    }

    // MARK: - Schema

    func testDumpSchema() throws {
        try makeRugbyDatabase().read { db in
            XCTAssertEqual(try output { try db.dumpSchema(to: $0) }, Self.rugbySchema)
        }
        try DatabaseQueue().read { db in
            XCTAssertEqual(try output { try db.dumpSchema(to: $0) }, "sqlite_master\n")
        }
    }

    private static let colorsSQL = """
        CREATE TABLE blue(name);
        CREATE TABLE RED(name);
        CREATE TABLE yellow(name);
        CREATE INDEX index_blue1 ON blue(name);
        CREATE INDEX INDEX_blue2 ON blue(name);
        CREATE INDEX indexRed1 ON RED(name);
        CREATE INDEX INDEXRed2 ON RED(name);
        CREATE VIEW colors1 AS SELECT name FROM blue;
        CREATE VIEW COLORS2 AS SELECT name FROM blue UNION SELECT name FROM yellow;
        CREATE TRIGGER update_blue UPDATE OF name ON blue
          BEGIN
            DELETE FROM RED;
          END;
        CREATE TRIGGER update_RED UPDATE OF name ON RED
          BEGIN
            DELETE FROM yellow;
          END;
        """

    /// Grouped by table whatever the case, each table first, then its indexes, triggers, and views.
    private static let colorsSchema = """
        sqlite_master
        CREATE TABLE blue(name);
        CREATE INDEX index_blue1 ON blue(name);
        CREATE INDEX INDEX_blue2 ON blue(name);
        CREATE TRIGGER update_blue UPDATE OF name ON blue
          BEGIN
            DELETE FROM RED;
          END;
        CREATE VIEW colors1 AS SELECT name FROM blue;
        CREATE VIEW COLORS2 AS SELECT name FROM blue UNION SELECT name FROM yellow;
        CREATE TABLE RED(name);
        CREATE INDEX indexRed1 ON RED(name);
        CREATE INDEX INDEXRed2 ON RED(name);
        CREATE TRIGGER update_RED UPDATE OF name ON RED
          BEGIN
            DELETE FROM yellow;
          END;
        CREATE TABLE yellow(name);

        """

    func testSchemaOrdering() throws {
        try DatabaseQueue().write { db in
            try db.execute(sql: Self.colorsSQL)
            XCTAssertEqual(try output { try db.dumpSchema(to: $0) }, Self.colorsSchema)
            // Tables only, not views, sorted whatever their case, even empty.
            XCTAssertEqual(try output { try db.dumpContent(to: $0) }, Self.colorsSchema + "\nblue\n\nRED\n\nyellow\n")
        }
    }

    /// Shadow tables of virtual tables are SQLite's; the virtual table is the application's.
    func testShadowTablesAreLeftOut() throws {
        try DatabaseQueue().write { db in
            try db.execute(
                sql: """
                    CREATE TABLE document(id INTEGER PRIMARY KEY AUTOINCREMENT, body);
                    INSERT INTO document VALUES (1, 'Hello world!');
                    CREATE VIRTUAL TABLE document_ft USING fts4(body, content="document");
                    INSERT INTO document_ft(docid, body) SELECT id, body FROM document;
                    """)
            XCTAssertEqual(
                try output { try db.dumpContent(to: $0) },
                """
                sqlite_master
                CREATE TABLE document(id INTEGER PRIMARY KEY AUTOINCREMENT, body);
                CREATE VIRTUAL TABLE document_ft USING fts4(body, content="document");

                document
                1|Hello world!

                document_ft
                Hello world!

                """)
        }
    }

    // MARK: - Content

    func testDumpContent() throws {
        let dbQueue = try makeRugbyDatabase()
        let rows = "player\n1|FRA|Antoine Dupond\n2|ENG|Owen Farrell\n3||Gwendal Roué\n\nteam\nENG|England Rugby|white\nFRA|XV de France|blue\n"
        XCTAssertEqual(try output { try dbQueue.dumpContent(to: $0) }, Self.rugbySchema + "\n" + rows)
        XCTAssertEqual(
            try output { try dbQueue.dumpContent(format: .json(), to: $0) },
            Self.rugbySchema + """

                player
                [{"id":1,"teamId":"FRA","name":"Antoine Dupond"},
                {"id":2,"teamId":"ENG","name":"Owen Farrell"},
                {"id":3,"teamId":null,"name":"Gwendal Roué"}]

                team
                [{"id":"ENG","name":"England Rugby","color":"white"},
                {"id":"FRA","name":"XV de France","color":"blue"}]

                """)
        // One blank line between tables, also after the line format's own margin.
        let team = "team\n   id = ENG\n name = England Rugby\ncolor = white\n\n   id = FRA\n name = XV de France\ncolor = blue\n"
        XCTAssertEqual(try output { try dbQueue.dumpTables(["team", "team"], format: .line(), to: $0) }, team + "\n" + team)
    }

    func testEmptyContent() throws {
        XCTAssertEqual(try output { try DatabaseQueue().dumpContent(to: $0) }, "sqlite_master\n")
        try DatabaseQueue().write { db in
            try db.execute(sql: "CREATE TABLE blue(name); CREATE TABLE red(name); CREATE TABLE yellow(name); INSERT INTO red VALUES ('vermillon')")
            XCTAssertEqual(
                try output { try db.dumpContent(to: $0) },
                """
                sqlite_master
                CREATE TABLE blue(name);
                CREATE TABLE red(name);
                CREATE TABLE yellow(name);

                blue

                red
                vermillon

                yellow

                """)
        }
    }

    /// The migrator's table is left out, as GRDB leaves it out.
    func testMigrationsTableIsLeftOut() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "player") { t in t.autoIncrementedPrimaryKey("id") }
        }
        try migrator.migrate(dbQueue)
        let schema = "sqlite_master\nCREATE TABLE \"player\" (\"id\" INTEGER PRIMARY KEY AUTOINCREMENT);\n"
        XCTAssertEqual(try output { try dbQueue.dumpSchema(to: $0) }, schema)
        XCTAssertEqual(try output { try dbQueue.dumpContent(to: $0) }, schema + "\nplayer\n")
    }

    /// Ripple's commit log, and any table of Ripple's (`_ripple_`), never appear.
    func testRippleTablesAreLeftOut() throws {
        var configuration = Configuration()
        configuration.logsChangedTables = true
        let path = try makeTemporaryDatabasePath(self)
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        try dbPool.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE _ripple_commit_subscriber(id INTEGER PRIMARY KEY, name);
                    CREATE INDEX _ripple_commit_subscriber_name ON _ripple_commit_subscriber(name);
                    CREATE TABLE t(a);
                    CREATE INDEX t_a ON t(a);
                    INSERT INTO t VALUES (1);
                    """)
        }
        let internalCount = try dbPool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE name LIKE '\\_ripple\\_%' ESCAPE '\\'")
        }
        XCTAssertEqual(internalCount, 3, "the commit log exists")
        let expected = "sqlite_master\nCREATE TABLE t(a);\nCREATE INDEX t_a ON t(a);\n\nt\n1\n"
        XCTAssertEqual(try output { try dbPool.dumpContent(to: $0) }, expected)
        XCTAssertFalse(try output { try dbPool.dumpSchema(to: $0) }.contains("_ripple_"))
    }

    // MARK: - Consistency, no writes

    /// Outside of a transaction, a dump opens one: it reads one state of the database.
    func testDumpReadsInOneTransaction() throws {
        let dbQueue = try makeRugbyDatabase()
        try dbQueue.inDatabase { db in
            let recorder = SQLRecorder()
            db.record(into: recorder)
            _ = try output { try db.dumpContent(to: $0) }
            XCTAssertEqual(recorder.statements.first, "BEGIN DEFERRED TRANSACTION")
            XCTAssertEqual(recorder.statements.last, "COMMIT TRANSACTION")
            XCTAssertFalse(db.isInsideTransaction)
        }
    }

    func testReadersDumpWithoutWriting() throws {
        let dbQueue = try makeRugbyDatabase()
        let stream = TextStream()
        assertDatabaseError(.SQLITE_READONLY) { try dbQueue.dumpSQL("SELECT 1; DELETE FROM player", to: stream) }
        XCTAssertEqual(stream.text, "1\n")
        XCTAssertEqual(try dbQueue.read { try Table("player").fetchCount($0) }, 3)
        XCTAssertEqual(try output { try dbQueue.dumpRequest(Table("team").select(Column("id")).order(Column("id").desc), to: $0) }, "FRA\nENG\n")
        XCTAssertEqual(try output { try dbQueue.dumpSQL("SELECT COUNT(*) FROM player", to: $0) }, "3\n")
        XCTAssertEqual(
            try output { try dbQueue.dumpTables(["team"], format: .quote(), to: $0) }, "'ENG','England Rugby','white'\n'FRA','XV de France','blue'\n")

        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self))
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES ('x')") }
        XCTAssertEqual(try output { try dbPool.dumpTables(["t"], tableHeader: .always, to: $0) }, "t\nx\n")
    }

    /// Without a stream, the dump goes to the standard output.
    func testStandardOutputByDefault() throws {
        let path = try makeTemporaryDatabasePath(self, name: "stdout.txt")
        fflush(nil)  // (all streams: `stdout` is a global variable Swift 6 refuses)
        let saved = dup(STDOUT_FILENO)
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        dup2(file, STDOUT_FILENO)
        var dumpError: (any Error)?
        do {
            try DatabaseQueue().dumpSQL("SELECT 'to stdout', 42")
        } catch {
            dumpError = error
        }
        fflush(nil)
        dup2(saved, STDOUT_FILENO)
        close(saved)
        close(file)
        XCTAssertNil(dumpError)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "to stdout|42\n")
    }
}
