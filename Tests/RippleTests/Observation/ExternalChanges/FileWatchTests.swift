#if os(Linux)
import Dispatch
import Foundation
import Glibc
import XCTest
@testable import Ripple

/// File watches share the process's one inotify instance: more databases than the kernel's
/// limit of instances (128 by default) are watched, each hears of its own files only, and
/// a paused watch hears nothing while the others of its directory go on.
final class FileWatchTests: XCTestCase {
    private let queue = DispatchQueue(label: "FileWatchTests")

    private final class Hits: @unchecked Sendable {  // `counts` behind `lock`
        private let lock = NSLock()
        private var counts: [Int: Int] = [:]
        func hit(_ index: Int) { lock.withLock { counts[index, default: 0] += 1 } }
        func count(_ index: Int) -> Int { lock.withLock { counts[index] ?? 0 } }
        var total: Int { lock.withLock { counts.values.reduce(0, +) } }
    }

    private func touch(_ path: String) {
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
    }

    func testMoreDatabasesThanTheKernelGivesInstances() throws {
        let root = try makeTemporaryDirectory(self)
        let hits = Hits()
        var watches: [FileWatch] = []
        for index in 0..<300 {
            let directory = root.appendingPathComponent("d\(index)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let watch = FileWatch(databasePath: directory.appendingPathComponent("db.sqlite").path, queue: queue) {
                hits.hit(index)
            }
            watches.append(try XCTUnwrap(watch, "watch \(index)"))
        }
        // The log of database 250 changes: its watch hears of it, no other does.
        touch(root.appendingPathComponent("d250/db.sqlite-wal").path)
        try waitUntil("an event of database 250") { hits.count(250) > 0 }
        // A file that is not the database's is no reason to check.
        touch(root.appendingPathComponent("d17/other.txt").path)
        touch(root.appendingPathComponent("d17/db.sqlite-journal").path)
        try waitUntil("an event of database 17") { hits.count(17) > 0 }
        XCTAssertEqual(hits.total, hits.count(250) + hits.count(17))
        for watch in watches { watch.cancel() }
    }

    func testAPausedWatchHearsNothingWhileTheOthersOfItsDirectoryGoOn() throws {
        let directory = try makeTemporaryDirectory(self)
        let hits = Hits()
        let first = try XCTUnwrap(FileWatch(databasePath: directory.appendingPathComponent("a.sqlite").path, queue: queue) { hits.hit(1) })
        let second = try XCTUnwrap(FileWatch(databasePath: directory.appendingPathComponent("b.sqlite").path, queue: queue) { hits.hit(2) })
        // (A change may make several events, read at once or not: counts only grow.)
        func touchAndWait(_ name: String, heardBy index: Int) throws {
            let before = hits.count(index)
            touch(directory.appendingPathComponent(name).path)
            try waitUntil("another event of database \(index)") { hits.count(index) > before }
        }
        try touchAndWait("a.sqlite-wal", heardBy: 1)
        try touchAndWait("b.sqlite-wal", heardBy: 2)
        first.pause()
        var firstCount = hits.count(1)
        touch(directory.appendingPathComponent("a.sqlite-wal").path)
        // An event for `second` after the one for `first`: once it is heard, the first
        // one was read.
        try touchAndWait("b.sqlite-wal", heardBy: 2)
        XCTAssertEqual(hits.count(1), firstCount, "paused")
        first.resume()
        try touchAndWait("a.sqlite-wal", heardBy: 1)
        // Both paused, the directory is not watched; resumed, events come again.
        first.pause()
        second.pause()
        touch(directory.appendingPathComponent("a.sqlite").path)
        second.resume()
        first.resume()
        try touchAndWait("a.sqlite-wal", heardBy: 1)
        // A cancelled watch hears nothing; the other goes on.
        first.cancel()
        firstCount = hits.count(1)
        touch(directory.appendingPathComponent("a.sqlite-wal").path)
        try touchAndWait("b.sqlite-wal", heardBy: 2)
        XCTAssertEqual(hits.count(1), firstCount, "cancelled")
        second.cancel()
    }

    func testTwoDatabasesOfOneDirectoryHearOnlyTheirOwnFiles() throws {
        let directory = try makeTemporaryDirectory(self)
        let hits = Hits()
        let first = try XCTUnwrap(FileWatch(databasePath: directory.appendingPathComponent("a.sqlite").path, queue: queue) { hits.hit(1) })
        let second = try XCTUnwrap(FileWatch(databasePath: directory.appendingPathComponent("b.sqlite").path, queue: queue) { hits.hit(2) })
        touch(directory.appendingPathComponent("b.sqlite-wal").path)
        try waitUntil("an event of database 2") { hits.count(2) > 0 }
        XCTAssertEqual(hits.count(1), 0, "b's log is no reason for a to check")
        touch(directory.appendingPathComponent("a.sqlite-journal").path)
        try waitUntil("an event of database 1") { hits.count(1) > 0 }
        first.cancel()
        second.cancel()
    }

    func testEventsAreParsedByWatchAndName() {
        func event(watch: Int32, mask: UInt32, name: String) -> [UInt8] {
            var nameBytes = Array(name.utf8)
            if !nameBytes.isEmpty { nameBytes += [UInt8](repeating: 0, count: 16 - nameBytes.count % 16) }
            var bytes: [UInt8] = []
            for word in [UInt32(bitPattern: watch), mask, 0, UInt32(nameBytes.count)] {
                withUnsafeBytes(of: word) { bytes += $0 }
            }
            return bytes + nameBytes
        }
        let buffer =
            event(watch: 3, mask: UInt32(IN_MODIFY), name: "db.sqlite-wal")
            + event(watch: 4, mask: UInt32(IN_CREATE), name: "x")
            + event(watch: 3, mask: UInt32(IN_IGNORED), name: "")
        var events = INotifyEvents()
        buffer.withUnsafeBytes { events.parse($0) }
        XCTAssertEqual(events.names, [3: ["db.sqlite-wal"], 4: ["x"]])
        XCTAssertFalse(events.overflowed)
        event(watch: -1, mask: UInt32(IN_Q_OVERFLOW), name: "").withUnsafeBytes { events.parse($0) }
        XCTAssertTrue(events.overflowed)
    }
}
#endif
