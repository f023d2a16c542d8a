import Foundation
import XCTest

@testable import Ripple

/// Scenarios run in a child process by the tests above: each one ends in a fatal error.
final class RecordFatalErrorScenarios: XCTestCase {
    final class Escaped: @unchecked Sendable {
        var container: KeyedDecodingContainer<Thief.CodingKeys>?
    }

    struct Thief: Decodable, FetchableRecord {
        nonisolated(unsafe) static var escaped = Escaped()
        var id: Int
        enum CodingKeys: String, CodingKey { case id }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int.self, forKey: .id)
            Self.escaped.container = container
        }
    }

    func testKeepDecodingContainer() throws {
        guard isFatalScenario else { return }
        let dbQueue = try DatabaseQueue()
        _ = try dbQueue.read { try Thief.fetchAll($0, sql: "SELECT 1 AS id") }
        // fatal error: A decoder or decoding container of a Ripple row was used after its row was gone.
        _ = try Thief.escaped.container?.decode(Int.self, forKey: .id)
    }
}
