import Dispatch
import Foundation
import XCTest

@testable import Ripple

/// Where a check for other connections' commits runs when it falls due during an access
/// of the writer: a check that finds nothing new runs at the end of that access, on its
/// thread; one that finds commits to read goes on in an access of its own, off the
/// application's thread.
final class ExternalCheckPlacementTests: XCTestCase {
    /// Records the thread of each "changes that no event describes" callback.
    final class ThreadRecorder: TransactionObserver, @unchecked Sendable {  // `threads` behind `lock`
        private let lock = NSLock()
        private var _threads: [ObjectIdentifier] = []
        var threads: [ObjectIdentifier] { lock.withLock { _threads } }
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { eventKind.tableName == "player" }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseDidChange() { lock.withLock { _threads.append(ObjectIdentifier(Thread.current)) } }
        func databaseDidCommit(_ db: Database) {}
        func databaseDidRollback(_ db: Database) {}
    }

    func testAnotherConnectionsCommitSeenDuringAnAccessIsReadInAnAccessOfItsOwn() throws {
        let path = try makeTemporaryDatabasePath(self)
        let pool = try DatabasePool(path: path)
        try pool.write { try $0.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)") }
        let recorder = ThreadRecorder()
        pool.add(transactionObserver: recorder)
        var config = Configuration()
        config.observesExternalChanges = false
        let other = try DatabaseQueue(path: path, configuration: config)

        let accessThread = LockedState<ObjectIdentifier?>(nil)
        let started = DispatchSemaphore(value: 0)
        let mayEnd = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            pool.writeWithoutTransaction { _ in
                accessThread.withLock { $0 = ObjectIdentifier(Thread.current) }
                started.signal()
                mayEnd.wait()
            }
            ended.signal()
        }
        started.wait()
        // Another connection commits while the writer's access runs: its file event asks
        // for a check, which waits for the end of that access.
        try other.write { try $0.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        try waitUntil("the check waits for the access") { pool.writer.workWaitingForEndOfAccess > 0 }
        XCTAssertEqual(recorder.threads, [], "not inside the access")
        mayEnd.signal()
        ended.wait()
        try waitUntil("the commit is told") { !recorder.threads.isEmpty }
        let thread = try XCTUnwrap(accessThread.withLock { $0 })
        XCTAssertEqual(recorder.threads.count, 1)
        XCTAssertNotEqual(recorder.threads.first, thread, "read in an access of its own, not on the application's thread")
    }
}
