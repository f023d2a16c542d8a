import Foundation

/// A client of chromedriver's W3C WebDriver HTTP API: just what the tests use.
struct WebDriver: Sendable {
    let port: Int

    /// The `value` of the answer to `method` `path` with a JSON `body`.
    func send(_ method: String, _ path: String, _ body: [String: any Sendable]? = nil) async throws -> Any? {
        let data = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        let response = try await LoopbackHTTP.send(port: port, method: method, path: "/" + path, body: data)
        let json = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        let value = json?["value"]
        guard response.status == 200 else {
            throw TestFailure("WebDriver \(method) \(path): \(String(decoding: response.body, as: UTF8.self))")
        }
        return value
    }

    /// Whether chromedriver answers, ready for sessions.
    func isReady() async -> Bool {
        let value = try? await send("GET", "status")
        return (value as? [String: Any])?["ready"] as? Bool == true
    }

    /// A new headless Chromium window, with a profile of its own.
    func newSession(chromium: String) async throws -> BrowserSession {
        let options: [String: any Sendable] = [
            "binary": chromium,
            // Root in a container: no sandbox; no GPU and no /dev/shm to rely on.
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=800,600"],
        ]
        let value = try await send("POST", "session", ["capabilities": ["alwaysMatch": ["goog:chromeOptions": options]]])
        guard let id = (value as? [String: Any])?["sessionId"] as? String else {
            throw TestFailure("WebDriver gave no session id: \(String(describing: value))")
        }
        return BrowserSession(driver: self, id: id)
    }
}

/// One browser window, driven as a person would: it opens a page, types and clicks.
struct BrowserSession: Sendable {
    let driver: WebDriver
    let id: String

    /// The key of an element reference in WebDriver's answers.
    private static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    func open(_ url: String) async throws {
        _ = try await driver.send("POST", "session/\(id)/url", ["url": url])
    }

    /// The element that `selector` (CSS) finds first.
    func element(_ selector: String) async throws -> String {
        let value = try await driver.send("POST", "session/\(id)/element", ["using": "css selector", "value": selector])
        guard let element = (value as? [String: Any])?[Self.elementKey] as? String else {
            throw TestFailure("no element \(selector)")
        }
        return element
    }

    func click(_ selector: String) async throws {
        let element = try await element(selector)
        _ = try await driver.send("POST", "session/\(id)/element/\(element)/click", [:])
    }

    func type(_ text: String, into selector: String) async throws {
        let element = try await element(selector)
        _ = try await driver.send("POST", "session/\(id)/element/\(element)/value", ["text": text])
    }

    /// The string that `script` (a function body) returns.
    func evaluate(_ script: String) async throws -> String {
        let value = try await driver.send("POST", "session/\(id)/execute/sync", ["script": script, "args": [String]()])
        guard let string = value as? String else { throw TestFailure("the script returned \(String(describing: value))") }
        return string
    }

    func quit() async {
        _ = try? await driver.send("DELETE", "session/\(id)")
    }
}
