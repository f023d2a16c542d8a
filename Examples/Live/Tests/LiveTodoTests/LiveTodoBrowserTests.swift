import Foundation
import LiveTodo
import XCTest

/// Two headless Chromium windows on the live page, and writes from another process: after
/// each series of writes, what both pages render equals what the database file holds.
final class LiveTodoBrowserTests: XCTestCase {
    func testTwoWindowsAndAnotherProcessConverge() async throws {
        try await withTwoWindows { alice, bob, server in
            try await self.converge(alice, bob, server, transport: "sse")
        }
    }

    /// The same, with both pages on the WebSocket transport (`?transport=ws`).
    func testTwoWindowsOverWebSocketAndAnotherProcessConverge() async throws {
        try await withTwoWindows { alice, bob, server in
            try await self.converge(alice, bob, server, transport: "ws")
        }
    }

    private func converge(_ alice: BrowserSession, _ bob: BrowserSession, _ server: LiveTodoServer, transport: String) async throws {
        for window in [alice, bob] {
            try await window.open(transport == "ws" ? server.url + "?transport=ws" : server.url)
            try await eventually("the page is live") {
                let state = try await window.state()
                return state.connected && state.total == 0
            }
            let state = try await window.state()
            XCTAssertEqual(state.transport, transport)
        }

        // Typed in the page: the page calls the write done once its stream carried the
        // write's commit, so the item is on the page then (read your writes).
        try await alice.type("Buy milk", into: "#new-title")
        try await alice.click("#add")
        try await alice.waitForWrites()
        var aliceState = try await alice.state()
        XCTAssertEqual(aliceState.todos.map(\.title), ["Buy milk"])
        XCTAssertEqual(aliceState.status, "live")

        try await bob.type("Walk the dog\n", into: "#new-title")
        try await bob.waitForWrites()
        let bobState = try await bob.state()
        XCTAssertEqual(bobState.todos.map(\.title), ["Buy milk", "Walk the dog"])

        // Another process writes the file with Ripple; both pages hear of it.
        try await server.writeFromAnotherProcess("add", "Call the plumber")
        let milk = try await bob.todoID(titled: "Buy milk")
        try await server.writeFromAnotherProcess("toggle", "\(milk)")
        try await assertPagesShowTheDatabase([alice, bob], server)

        // Clicks in both windows, between writes of the other process.
        let plumber = try await bob.todoID(titled: "Call the plumber")
        try await bob.click("li[data-id=\"\(plumber)\"] .toggle")
        let dog = try await alice.todoID(titled: "Walk the dog")
        try await alice.click("li[data-id=\"\(dog)\"] .delete")
        try await server.writeFromAnotherProcess("add", "Water the plants")
        try await bob.waitForWrites()
        try await alice.waitForWrites()
        try await assertPagesShowTheDatabase([alice, bob], server)

        // Clear the done ones from a page, add from both sides.
        try await alice.click("#clear-done")
        try await server.writeFromAnotherProcess("add", "Pay rent")
        try await bob.type("Fix the bike\n", into: "#new-title")
        try await alice.waitForWrites()
        try await bob.waitForWrites()
        try await assertPagesShowTheDatabase([alice, bob], server)

        aliceState = try await alice.state()
        XCTAssertEqual(Set(aliceState.todos.map(\.title)), ["Water the plants", "Pay rent", "Fix the bike"])
        XCTAssertEqual(aliceState.total, 3)
        XCTAssertEqual(aliceState.done, 0)
    }

    /// Waits until each page renders the database's content, then asserts it: the list,
    /// and the counts of the other query, of the same commit.
    private func assertPagesShowTheDatabase(_ windows: [BrowserSession], _ server: LiveTodoServer, file: StaticString = #filePath, line: UInt = #line) async throws {
        let todos = try server.todosInDatabase()
        for window in windows {
            try await eventually("the page shows the database's \(todos.count) todos") {
                try await window.state().todos == todos
            }
            let state = try await window.state()
            XCTAssertEqual(state.todos, todos, file: file, line: line)
            XCTAssertEqual(state.total, todos.count, file: file, line: line)
            XCTAssertEqual(state.done, todos.filter(\.done).count, file: file, line: line)
        }
    }
}
