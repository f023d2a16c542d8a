import XCTest

@testable import Ripple

final class ASCIIKeywordSearchTests: XCTestCase {
    func testMentionsAKeywordWhateverItsCase() {
        XCTAssertTrue("INSERT OR REPLACE INTO t VALUES (1)".mentionsASCIIKeyword("replace"))
        XCTAssertTrue("insert or RePlAcE into t".mentionsASCIIKeyword("replace"))
        XCTAssertTrue("replace".mentionsASCIIKeyword("replace"))
        XCTAssertTrue("ÉtéREPLACEété".mentionsASCIIKeyword("replace"), "non-ASCII text around")
        XCTAssertFalse("INSERT OR REPLAC".mentionsASCIIKeyword("replace"))
        XCTAssertFalse("".mentionsASCIIKeyword("fail"))
        XCTAssertFalse("FAI L".mentionsASCIIKeyword("fail"))
        XCTAssertTrue("CREATE TABLE t (a) WITHOUT ROWID".mentionsASCIIKeyword("without"))
    }

    func testStartsWithAKeywordWhateverItsCase() {
        XCTAssertTrue("CREATE VIRTUAL TABLE t USING fts5(x)".startsWithASCIIKeyword("create virtual table"))
        XCTAssertTrue("create Virtual table t".startsWithASCIIKeyword("create virtual table"))
        XCTAssertFalse(" CREATE VIRTUAL TABLE t".startsWithASCIIKeyword("create virtual table"))
        XCTAssertFalse("CREATE TABLE virtual".startsWithASCIIKeyword("create virtual table"))
        XCTAssertFalse("CREATE VIRTUAL TABL".startsWithASCIIKeyword("create virtual table"))
    }
}
