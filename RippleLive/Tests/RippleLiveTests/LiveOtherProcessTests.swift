import Foundation
import Ripple
import RippleLive
import Testing

/// Python's sqlite3 module, a writer that knows nothing of Ripple, in another process.
let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }

@Suite(.serialized) struct LiveOtherProcessTests {
    @Test(.enabled(if: python != nil, "needs python3"))
    func aCommitOfAnotherProcessReachesSubscribers() async throws {
        try await LiveFixture.run(queries: [notesQuery()]) { live in
            let (client, first) = try await live.subscribe(#"top:{"limit":3}"#, "notes")
            defer { Task { await client.close() } }
            let before = try #require(first?.sequence)

            let process = Process()
            process.executableURL = URL(fileURLWithPath: try #require(python))
            process.arguments = ["-c", """
                import sqlite3, sys
                db = sqlite3.connect(sys.argv[1], timeout=10)
                db.execute("INSERT INTO player (id, name, score) VALUES (9, 'python', 90)")
                db.commit()
                db.close()
                """, live.path]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)

            // Ripple tells it as a change of the whole database: both queries fetch again;
            // only `top` changed, and it comes alone, with a new sequence.
            let event = try await within("value of the other process's commit") { await client.nextEvent() }
            #expect(event?.playerNames(0) == ["python"])
            #expect(event?.valueJSON(1) == nil)
            #expect(try #require(event?.sequence) > before)
        }
    }
}
