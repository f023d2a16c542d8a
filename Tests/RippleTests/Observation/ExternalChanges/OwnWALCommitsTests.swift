import XCTest

@testable import Ripple

/// A check steps over the connection's own commits only when they explain everything the
/// wal-index shows since the position.
final class OwnWALCommitsTests: XCTestCase {
    private func index(_ salt1: UInt32, _ maxFrame: Int) -> WALIndexHeader {
        WALIndexHeader(salt1: salt1, salt2: 7, maxFrame: maxFrame)
    }

    private func commits(_ spans: [(start: Int?, end: Int)], salt1: UInt32 = 1) -> OwnWALCommits {
        var commits = OwnWALCommits()
        for span in spans {
            commits.commitWillHappen(start: span.start.map { index(salt1, $0) })
            commits.commitDidWrite(endFrame: span.end)
        }
        return commits
    }

    func testContiguousOwnCommitsExplainTheIndex() {
        let own = commits([(10, 12), (12, 15)])
        XCTAssertEqual(own.endFrameExplainingAll(salt1: 1, salt2: 7, frame: 10, index: index(1, 15)), 15)
        XCTAssertEqual(own.endFrames, [12, 15])
    }

    func testAnyOtherCommitIsLeftToTheScan() {
        // Another commit before the first own one, between two, or after the last.
        XCTAssertNil(commits([(11, 12), (12, 15)]).endFrameExplainingAll(salt1: 1, salt2: 7, frame: 10, index: index(1, 15)))
        XCTAssertNil(commits([(10, 12), (13, 15)]).endFrameExplainingAll(salt1: 1, salt2: 7, frame: 10, index: index(1, 15)))
        XCTAssertNil(commits([(10, 12), (12, 15)]).endFrameExplainingAll(salt1: 1, salt2: 7, frame: 10, index: index(1, 17)))
        // A start that could not be read, another generation of the log, a log started over.
        XCTAssertNil(commits([(nil, 12)]).endFrameExplainingAll(salt1: 1, salt2: 7, frame: 10, index: index(1, 12)))
        XCTAssertNil(commits([(10, 12)], salt1: 2).endFrameExplainingAll(salt1: 1, salt2: 7, frame: 10, index: index(1, 12)))
        XCTAssertNil(commits([(10, 12)]).endFrameExplainingAll(salt1: 1, salt2: 7, frame: 10, index: index(2, 12)))
        XCTAssertNil(commits([(10, 3)]).endFrameExplainingAll(salt1: 1, salt2: 7, frame: 10, index: index(1, 3)))
        // No own commit: nothing to step over.
        XCTAssertNil(OwnWALCommits().endFrameExplainingAll(salt1: 1, salt2: 7, frame: 10, index: index(1, 10)))
    }

    func testACommitThatWasNotAnnouncedHasNoStart() {
        var own = OwnWALCommits()
        own.commitWillHappen(start: index(1, 10))
        own.commitDidWrite(endFrame: 12)
        // A commit without the hook (the start of the previous one is not reused).
        own.commitDidWrite(endFrame: 14)
        XCTAssertNil(own.endFrameExplainingAll(salt1: 1, salt2: 7, frame: 10, index: index(1, 14)))
    }
}
