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

    /// A commit that wrote as many pages as the log holds frames after it, when the log was
    /// not empty before, wrote them from the start of a new log (salt-1 plus one).
    func testACommitThatStartedANewLog() {
        var own = OwnWALCommits()
        own.commitWillHappen(start: index(1, 10), pagesWritten: 100)
        XCTAssertTrue(own.needsPagesWrittenAfterCommit)
        own.commitDidWrite(endFrame: 2, pagesWritten: 102)
        XCTAssertEqual(own.commits.last?.startedNewLog, true)
        let newLog = WALIndexHeader(salt1: 2, salt2: 99, maxFrame: 2)
        XCTAssertEqual(own.endFrameExplainingAll(salt1: 1, salt2: 7, frame: 10, index: newLog), 2)
        // Then a commit appended to the new log.
        own.commitWillHappen(start: newLog)
        XCTAssertFalse(own.needsPagesWrittenAfterCommit)
        own.commitDidWrite(endFrame: 5)
        XCTAssertEqual(own.endFrameExplainingAll(salt1: 1, salt2: 7, frame: 10, index: WALIndexHeader(salt1: 2, salt2: 99, maxFrame: 5)), 5)
        // Another commit after them, another reset after them, another salt-2 in between.
        XCTAssertNil(own.endFrameExplainingAll(salt1: 1, salt2: 7, frame: 10, index: WALIndexHeader(salt1: 2, salt2: 99, maxFrame: 6)))
        XCTAssertNil(own.endFrameExplainingAll(salt1: 1, salt2: 7, frame: 10, index: WALIndexHeader(salt1: 3, salt2: 99, maxFrame: 5)))
        XCTAssertNil(own.endFrameExplainingAll(salt1: 1, salt2: 7, frame: 10, index: WALIndexHeader(salt1: 2, salt2: 98, maxFrame: 5)))
    }

    func testCountsThatDoNotProveANewLog() {
        // Appended: the log holds the previous frames too.
        var appended = OwnWALCommits()
        appended.commitWillHappen(start: index(1, 10), pagesWritten: 100)
        appended.commitDidWrite(endFrame: 12, pagesWritten: 102)
        XCTAssertEqual(appended.commits.last?.startedNewLog, false)
        XCTAssertEqual(appended.endFrameExplainingAll(salt1: 1, salt2: 7, frame: 10, index: index(1, 12)), 12)
        // More pages than frames (padding, or pages of another file), an empty log before,
        // or no count: not proved.
        for (start, before, after, end) in [(10, 100, 103, 2), (0, 100, 102, 2)] as [(Int, Int64?, Int64?, Int)] {
            var own = OwnWALCommits()
            own.commitWillHappen(start: index(1, start), pagesWritten: before)
            own.commitDidWrite(endFrame: end, pagesWritten: after)
            XCTAssertEqual(own.commits.last?.startedNewLog, false)
            XCTAssertNil(own.endFrameExplainingAll(salt1: 1, salt2: 7, frame: start, index: WALIndexHeader(salt1: 2, salt2: 99, maxFrame: end)))
        }
        var uncounted = OwnWALCommits()
        uncounted.commitWillHappen(start: index(1, 10))
        uncounted.commitDidWrite(endFrame: 2, pagesWritten: 102)
        XCTAssertEqual(uncounted.commits.last?.startedNewLog, false)
    }

    func testOnlyAWholeCopiedLogMayStartANewOne() {
        XCTAssertTrue(OwnWALCommits.mayStartNewLog(index(1, 10), backfilled: 10))
        XCTAssertFalse(OwnWALCommits.mayStartNewLog(index(1, 10), backfilled: 9))
        XCTAssertFalse(OwnWALCommits.mayStartNewLog(index(1, 0), backfilled: 0))
        XCTAssertFalse(OwnWALCommits.mayStartNewLog(index(1, 10), backfilled: nil))
    }
}
