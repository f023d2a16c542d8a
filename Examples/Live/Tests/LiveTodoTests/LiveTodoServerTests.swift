import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LiveTodo
import XCTest

/// The `live-todo` program without a browser: its page, its write endpoints and their
/// receipts, its refusals, and its write mode.
final class LiveTodoServerTests: XCTestCase {
    func testWritesReturnTheirCommitAndRefusalsWriteNothing() async throws {
        let server = try await LiveTodoServer.start()
        defer { server.stop() }

        let page = try await request(server, "GET", "")
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.body.contains("new EventSource('live?q=todos&q=summary')"))

        let first = try await request(server, "POST", "todos", body: #"{"title":"  Buy milk "}"#)
        XCTAssertEqual(first.status, 200)
        let receipt = try JSONDecoder().decode(WriteReceipt.self, from: Data(first.body.utf8))
        XCTAssertEqual(receipt.todo?.title, "Buy milk")
        XCTAssertTrue(receipt.event.hasSuffix("-\(receipt.seq)"))

        let toggled = try await request(server, "POST", "todos/\(receipt.todo?.id ?? 0)/toggle")
        let second = try JSONDecoder().decode(WriteReceipt.self, from: Data(toggled.body.utf8))
        XCTAssertEqual(second.todo?.done, true)
        XCTAssertGreaterThan(second.seq, receipt.seq)

        let empty = try await request(server, "POST", "todos", body: #"{"title":"   "}"#)
        XCTAssertEqual(empty.status, 400)
        let missing = try await request(server, "POST", "todos/999/delete")
        XCTAssertEqual(missing.status, 404)
        XCTAssertTrue(missing.body.contains("no todo has id 999"))

        let said = try await server.writeFromAnotherProcess("add", "Call the plumber")
        XCTAssertTrue(said.hasPrefix("added "))
        XCTAssertEqual(try server.todosInDatabase().map(\.title), ["Buy milk", "Call the plumber"])
        XCTAssertEqual(try server.todosInDatabase().map(\.done), [true, false])
    }

    private func request(_ server: LiveTodoServer, _ method: String, _ path: String, body: String? = nil) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: URL(string: server.url + path)!)
        request.httpMethod = method
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }
}
