import Foundation
import Ripple
import XCTest

/// FTS5 tokenizers: built-in ones made by `makeTokenizer`, custom ones registered with
/// `add(tokenizer:)`, and wrappers that process the tokens of another tokenizer.
final class FTS5TokenizerAPITests: XCTestCase {
    /// Keeps the tokens of the wrapped tokenizer that are not "the", and adds "1st" after
    /// "first" in documents, as a synonym.
    private final class StopAndSynonymTokenizer: FTS5WrapperTokenizer {
        static let name = "stop_and_synonym"
        let wrappedTokenizer: any FTS5Tokenizer

        init(db: Database, arguments: [String]) throws {
            wrappedTokenizer = try db.makeTokenizer(arguments.isEmpty ? .unicode61() : FTS5TokenizerDescriptor(components: arguments))
        }

        func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
            guard token != "the" else { return }
            try tokenCallback(token, flags)
            if token == "first", tokenization.contains(.document) {
                try tokenCallback("1st", .colocated)
            }
        }
    }

    /// A tokenizer whose creation fails.
    private final class FailingTokenizer: FTS5CustomTokenizer {
        static let name = "failing"
        init(db: Database, arguments: [String]) throws {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "no")
        }
        func tokenize(
            context: UnsafeMutableRawPointer?, tokenization: FTS5Tokenization, pText: UnsafePointer<CChar>?, nText: CInt,
            tokenCallback: @escaping FTS5TokenCallback
        ) -> CInt {
            1
        }
    }

    func testBuiltInTokenizers() throws {
        try DatabaseQueue().inDatabase { db in
            XCTAssertEqual(try db.makeTokenizer(.ascii()).tokenize(query: "Élan VITAL").map(\.token), ["Élan", "vital"])
            XCTAssertEqual(try db.makeTokenizer(.unicode61()).tokenize(document: "Élan VITAL").map(\.token), ["elan", "vital"])
            XCTAssertEqual(try db.makeTokenizer(.porter()).tokenize(query: "databases").map(\.token), ["databas"])
            XCTAssertEqual(try db.makeTokenizer(.ascii()).tokenize(query: "").count, 0)
            XCTAssertThrowsError(try db.makeTokenizer(FTS5TokenizerDescriptor(components: ["nope"])))
            XCTAssertThrowsError(try db.makeTokenizer(FTS5TokenizerDescriptor(components: ["unicode61", "remove_diacritics", "9"])))
        }
    }

    func testWrapperTokenizer() throws {
        try DatabaseQueue().inDatabase { db in
            db.add(tokenizer: StopAndSynonymTokenizer.self)
            let tokenizer = try db.makeTokenizer(StopAndSynonymTokenizer.tokenizerDescriptor())
            let query = try tokenizer.tokenize(query: "The first one")
            XCTAssertEqual(query.map(\.token), ["first", "one"])
            let document = try tokenizer.tokenize(document: "The first one")
            XCTAssertEqual(document.map(\.token), ["first", "1st", "one"])
            XCTAssertEqual(document.map(\.flags), [[], .colocated, []])

            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.tokenizer = StopAndSynonymTokenizer.tokenizerDescriptor(arguments: ["ascii"])
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO doc(content) VALUES ('the first day')")
            func count(_ pattern: String) throws -> Int {
                try Table("doc").matching(FTS5Pattern(rawPattern: pattern)).fetchCount(db)
            }
            XCTAssertEqual(try count("1st"), 1, "synonym indexed")
            XCTAssertEqual(try count("day"), 1)
            XCTAssertEqual(try count("the"), 0, "stop word not indexed")
        }
    }

    func testFailingCustomTokenizerThrows() throws {
        try DatabaseQueue().inDatabase { db in
            db.add(tokenizer: FailingTokenizer.self)
            XCTAssertThrowsError(try db.makeTokenizer(FailingTokenizer.tokenizerDescriptor()))
            XCTAssertThrowsError(
                try db.create(virtualTable: "doc", using: FTS5()) { t in
                    t.tokenizer = FailingTokenizer.tokenizerDescriptor()
                    t.column("content")
                })
        }
    }

    func testCustomTokenizersOfEachConnectionOfAPool() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.add(tokenizer: StopAndSynonymTokenizer.self) }
        let dbPool = try DatabasePool(path: directory.appendingPathComponent("db.sqlite").path, configuration: configuration)
        try dbPool.write { db in
            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.tokenizer = StopAndSynonymTokenizer.tokenizerDescriptor()
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO doc(content) VALUES ('first')")
        }
        let count = try dbPool.read { db in
            try Table("doc").matching(FTS5Pattern(rawPattern: "1st")).fetchCount(db)
        }
        XCTAssertEqual(count, 1)
    }
}
