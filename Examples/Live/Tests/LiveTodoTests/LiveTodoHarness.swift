import Foundation
#if canImport(Glibc)
import Glibc
#endif
import LiveTodo
import Ripple
import XCTest

/// The `live-todo` server on a fresh database file and a free loopback port, for one test.
struct LiveTodoServer: Sendable {
    let directory: URL
    let databasePath: String
    let url: String
    let server: ChildProcess

    /// `live-todo`, which `swift build` put beside the test bundle.
    static var executable: URL {
        get throws {
            let starts = [Bundle.main.executableURL, Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0])]
            for start in starts.compactMap({ $0 }) {
                var folder = start
                for _ in 0..<4 {
                    folder.deleteLastPathComponent()
                    let candidate = folder.appendingPathComponent("live-todo")
                    if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                }
            }
            throw TestFailure("live-todo is not built next to the tests: run swift build --build-tests first")
        }
    }

    /// Starts `live-todo --port 0` and reads the URL it prints.
    static func start() async throws -> LiveTodoServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("live-todo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("todos.sqlite").path
        let server = try ChildProcess(try executable, ["--port", "0", "--db", path])
        let line = try await server.line(containing: "Live todo list at ")
        let url = String(line.split(separator: " ").last ?? "")
        return LiveTodoServer(directory: directory, databasePath: path, url: url, server: server)
    }

    /// Writes to the database from another process: `live-todo write <words>`.
    @discardableResult
    func writeFromAnotherProcess(_ words: String...) async throws -> String {
        try await runToEnd(try Self.executable, ["write", "--db", databasePath] + words)
    }

    /// The todos, read from the file with a connection of this process.
    func todosInDatabase() throws -> [Todo] {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: databasePath, configuration: configuration)
        return try queue.read { db in try TodoStore.all.fetchAll(db) }
    }

    func stop() {
        server.terminate()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// chromedriver on a free loopback port.
struct ChromeDriver: Sendable {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let chromedriver = ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"].first { FileManager.default.isExecutableFile(atPath: $0) }

    let process: ChildProcess
    let driver: WebDriver

    /// Starts chromedriver; skips the test when Chromium or chromedriver is not installed.
    static func start() async throws -> ChromeDriver {
        guard chromium != nil, let chromedriver else {
            throw XCTSkip("headless Chromium and chromedriver are not installed: apt-get install -y chromium chromium-driver")
        }
        // chromedriver buffers what it prints to a pipe: the test picks the port, and
        // asks chromedriver whether it is ready.
        let port = try freeLoopbackPort()
        let process = try ChildProcess(URL(fileURLWithPath: chromedriver), ["--port=\(port)"])
        let driver = WebDriver(port: port)
        do {
            try await eventually("chromedriver is ready") { await driver.isReady() }
        } catch {
            process.terminate()
            throw error
        }
        return ChromeDriver(process: process, driver: driver)
    }

    func newWindow() async throws -> BrowserSession {
        try await driver.newSession(chromium: Self.chromium ?? "")
    }

    func stop() {
        process.terminate()
    }
}

/// What a page shows, read from its DOM.
struct PageState: Decodable, Equatable {
    var connected: Bool
    var pending: Int
    var status: String
    /// `sse` or `ws`: what the page subscribed with.
    var transport: String
    var todos: [Todo]
    var total: Int?
    var done: Int?

    static let script = """
        const summary = document.getElementById('summary')
        return JSON.stringify({
          connected: document.body.dataset.connected === 'true',
          pending: Number(document.body.dataset.pending),
          status: document.getElementById('status').dataset.state,
          transport: document.body.dataset.transport,
          todos: [...document.querySelectorAll('#todos li')].map((li) => ({
            id: Number(li.dataset.id),
            title: li.querySelector('.title').textContent,
            done: li.dataset.done === 'true',
          })),
          total: summary.dataset.total === undefined ? null : Number(summary.dataset.total),
          done: summary.dataset.done === undefined ? null : Number(summary.dataset.done),
        })
        """
}

extension BrowserSession {
    func state() async throws -> PageState {
        try JSONDecoder().decode(PageState.self, from: Data(try await evaluate(PageState.script).utf8))
    }

    /// The id of the todo this page shows titled `title`, once it shows it.
    func todoID(titled title: String) async throws -> Int64 {
        try await eventually("the page shows \(title)") { try await state().todos.contains { $0.title == title } }
        guard let id = try await state().todos.first(where: { $0.title == title })?.id else { throw TestFailure("no \(title)") }
        return id
    }

    /// Waits until the page's writes are done: each waited for its commit on the stream.
    func waitForWrites() async throws {
        try await eventually("the page's writes are done") { try await state().pending == 0 }
    }
}

/// Runs `body` with two browser windows and a server, then closes the windows before
/// chromedriver stops, so that no browser outlives the test.
func withTwoWindows(_ body: (BrowserSession, BrowserSession, LiveTodoServer) async throws -> Void) async throws {
    let chrome = try await ChromeDriver.start()
    defer { chrome.stop() }
    let server = try await LiveTodoServer.start()
    defer { server.stop() }
    var windows: [BrowserSession] = []
    do {
        windows.append(try await chrome.newWindow())
        windows.append(try await chrome.newWindow())
        try await body(windows[0], windows[1], server)
    } catch {
        for window in windows { await window.quit() }
        throw error
    }
    for window in windows { await window.quit() }
}

/// A loopback port that no one listens on now: the kernel's pick for a socket bound to
/// port 0, closed at once.
func freeLoopbackPort() throws -> Int {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw TestFailure("no socket") }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
            bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0
        }
    }
    guard bound else { throw TestFailure("no free port") }
    return Int(UInt16(bigEndian: address.sin_port))
}
