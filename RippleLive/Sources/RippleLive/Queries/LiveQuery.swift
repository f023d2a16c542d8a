import Foundation

/// A named query that clients subscribe to: `GET /live?q=<name>:<JSON parameters>`.
///
/// ```swift
/// struct Top: Codable, Sendable { var limit: Int }
///
/// let leaderboard = LiveQuery("leaderboard", parameters: Top.self) { top, scope in
///     let request = Player.order(Column("score").desc).limit(top.limit)
///     return LiveFetch(tracking: request) { db in try request.fetchAll(db) }
/// }
/// ```
///
/// The closure runs once per subscription, when it is made, to check its parameters and
/// make its fetch; never per commit. The first subscriber of a shared query (a name,
/// canonical parameters and a scope) gives the fetch that all its subscribers share.
public struct LiveQuery: Sendable {
    /// The name clients subscribe to.
    public let name: String
    let makeFetch: @Sendable (_ parametersJSON: String?, _ scope: LiveScope) throws(LiveRequestError) -> (canonicalParameters: String, fetch: LiveFetch)

    /// A query whose subscriptions carry parameters, decoded from JSON. Malformed
    /// parameters are answered with a 400 response.
    public init<Parameters: Codable & Sendable>(
        _ name: String,
        parameters: Parameters.Type,
        fetch: @escaping @Sendable (Parameters, LiveScope) throws -> LiveFetch)
    {
        self.name = name
        self.makeFetch = { (json, scope) throws(LiveRequestError) in
            guard let json else {
                throw LiveRequestError(.badRequest, "live query \"\(name)\" needs parameters: q=\(name):<JSON>")
            }
            let parameters: Parameters
            do {
                parameters = try JSONDecoder().decode(Parameters.self, from: Data(json.utf8))
            } catch {
                throw LiveRequestError(.badRequest, "malformed parameters of live query \"\(name)\": \(Self.describe(error))")
            }
            // Parameters that decode the same share one observation, however they were
            // spelled: the key is their encoding with sorted keys.
            let canonical: String
            do {
                let encoder = JSONEncoder()
                encoder.outputFormatting = .sortedKeys
                canonical = String(decoding: try encoder.encode(parameters), as: UTF8.self)
            } catch {
                throw LiveRequestError(.badRequest, "parameters of live query \"\(name)\" do not encode: \(error)")
            }
            do {
                return (canonical, try fetch(parameters, scope))
            } catch let error as LiveRequestError {
                throw error
            } catch {
                throw LiveRequestError(.badRequest, "live query \"\(name)\" refused its parameters: \(error)")
            }
        }
    }

    /// A query without parameters.
    public init(_ name: String, fetch: @escaping @Sendable (LiveScope) throws -> LiveFetch) {
        self.name = name
        self.makeFetch = { (json, scope) throws(LiveRequestError) in
            if let json, !json.isEmpty {
                throw LiveRequestError(.badRequest, "live query \"\(name)\" takes no parameters")
            }
            do {
                return ("", try fetch(scope))
            } catch let error as LiveRequestError {
                throw error
            } catch {
                throw LiveRequestError(.badRequest, "live query \"\(name)\" failed to start: \(error)")
            }
        }
    }

    /// A short description of a decoding error, for the 400 response.
    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            return context.debugDescription
        case DecodingError.keyNotFound(let key, _):
            return "missing key \"\(key.stringValue)\""
        case DecodingError.typeMismatch(let type, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "\(path.isEmpty ? "value" : path) is not \(type)"
        case DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "\(path) is null"
        default:
            return "\(error)"
        }
    }
}
