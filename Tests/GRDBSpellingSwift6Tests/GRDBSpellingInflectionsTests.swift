// Compiled twice, in Swift 6 (GRDBSpellingSwift6Tests) and Swift 5 (GRDBSpellingSwift5Tests,
// through a link to this file) language modes: inflections configured the way GRDB's
// documentation writes it.
import Foundation
import Ripple
import XCTest

final class GRDBSpellingInflectionsTests: XCTestCase {
    func testCustomInflections() {
        var inflections = Inflections()
        inflections.plural("$", "s")
        inflections.singular("s$", "")
        inflections.plural("(ax)is$", options: [.caseInsensitive], "$1es")
        inflections.singular("(ax)es$", options: [], "$1is")
        inflections.irregularSuffix("man", "men")
        inflections.uncountableWords(["foo"])
        XCTAssertEqual(inflections.pluralize("player"), "players")
        XCTAssertEqual(inflections.singularize("players"), "player")
        XCTAssertEqual(inflections.pluralize("axis"), "axes")
        XCTAssertEqual(inflections.singularize("axes"), "axis")
        XCTAssertEqual(inflections.pluralize("man"), "men")
        XCTAssertEqual(inflections.singularize("women"), "woman")
        XCTAssertEqual(inflections.pluralize("foo"), "foo")
        XCTAssertEqual(inflections.pluralize("bar"), "bars")
    }

    func testDefaultInflections() {
        let original = Inflections.default
        defer { Inflections.default = original }
        XCTAssertEqual(Inflections.default.pluralize("player"), "players")
        XCTAssertEqual(Inflections.default.singularize("people"), "person")
        Inflections.default.irregularSuffix("foot", "footz")
        Inflections.default.uncountableWords(["metadata"])
        XCTAssertEqual(Inflections.default.pluralize("foot"), "footz")
        XCTAssertEqual(Inflections.default.pluralize("metadata"), "metadata")
    }

    func testBelongsToPluralTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "teams") { t in
                t.autoIncrementedPrimaryKey("id")
            }
            try db.create(table: "countries") { t in
                t.primaryKey("code", .text)
            }
            try db.create(table: "players") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("team")
                t.belongsTo("country")
            }
            let destinations = try db.foreignKeys(on: "players").map(\.destinationTable)
            XCTAssertEqual(Set(destinations), ["teams", "countries"])
        }
    }
}
