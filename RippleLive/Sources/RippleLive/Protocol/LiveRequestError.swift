import Foundation
import Hummingbird

/// A subscription the server refuses before streaming: a 4xx response whose JSON body says
/// why (`{"error":"unknown live query \"foo\"","subscription":1}`).
public struct LiveRequestError: Error, Equatable, Sendable {
    /// The response status: 400 for a malformed URL or parameters, 404 for an unknown
    /// query, 403 when authorization refused.
    public var status: HTTPResponse.Status
    /// What is wrong, for a developer reading the response.
    public var message: String
    /// The position of the subscription at fault in the URL, when one is.
    public var subscription: Int?

    /// An error answered with `status` and `message`.
    public init(_ status: HTTPResponse.Status, _ message: String, subscription: Int? = nil) {
        self.status = status
        self.message = message
        self.subscription = subscription
    }

    /// The JSON body of the response.
    var jsonBody: [UInt8] {
        struct Body: Encodable {
            var error: String
            var subscription: Int?
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding a struct of a string and an optional integer cannot fail.
        return Array((try? encoder.encode(Body(error: message, subscription: subscription))) ?? Data())
    }
}
