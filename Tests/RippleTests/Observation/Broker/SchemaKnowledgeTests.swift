import XCTest

@testable import Ripple

/// What the broker knows of the schema, with plain values.
final class SchemaKnowledgeTests: XCTestCase {
    private func facts(version: Int) -> SchemaFacts {
        SchemaFacts(
            version: version, tables: ["player": .init(name: "player", schemaName: "main")], virtualTables: [],
            replaceTables: [], triggersMayReplace: false, withoutTables: [], mentionsFail: false)
    }

    func testLearnedFactsServeUntilForgotten() {
        var knowledge = SchemaKnowledge()
        XCTAssertNil(knowledge.facts)
        XCTAssertNil(knowledge.usableVersion)
        knowledge.learn(facts(version: 3))
        XCTAssertEqual(knowledge.facts?.tables["player"]?.name, "player")
        XCTAssertEqual(knowledge.usableVersion, 3)
        knowledge.forget()
        XCTAssertNil(knowledge.facts)
        XCTAssertNil(knowledge.usableVersion)
    }

    func testAStatementThatChangesTheSchemaForgetsTheFacts() {
        var knowledge = SchemaKnowledge()
        knowledge.learn(facts(version: 1))
        knowledge.statementDidEnd(changedSchema: false)
        XCTAssertEqual(knowledge.usableVersion, 1)
        knowledge.statementDidEnd(changedSchema: true)
        XCTAssertNil(knowledge.facts)
    }

    func testStaleFactsServeTheRunningStatementOnly() {
        var knowledge = SchemaKnowledge()
        knowledge.learn(facts(version: 2))
        knowledge.markStale()
        // Still readable (the schema cannot be read inside sqlite3_step), but nothing is
        // derived from them.
        XCTAssertEqual(knowledge.facts?.version, 2)
        XCTAssertTrue(knowledge.mayBeStale)
        XCTAssertNil(knowledge.usableVersion)
        knowledge.statementDidEnd(changedSchema: false)
        XCTAssertNil(knowledge.facts)
        XCTAssertFalse(knowledge.mayBeStale)
        knowledge.learn(facts(version: 4))
        XCTAssertEqual(knowledge.usableVersion, 4)
    }
}
