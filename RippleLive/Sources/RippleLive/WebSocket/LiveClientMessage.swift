import Foundation

/// A message a WebSocket client sends, as JSON text:
///
/// - `{"type":"subscribe","subscriptions":[{"id":0,"query":"top","parameters":{"limit":3}},
///   {"id":1,"query":"notes"}],"lastEventId":"1f3a9c07b2d4e811-42"}`: the ids are the
///   client's own (non-negative integers, unique on the socket) and name the values in
///   the messages; `lastEventId` is optional.
/// - `{"type":"unsubscribe","ids":[0]}`.
enum LiveClientMessage: Equatable, Sendable {
    case subscribe([SubscriptionSpec], lastEventID: String?)
    case unsubscribe([Int])

    /// Parses a message; a malformed one is a 400 ``LiveRequestError`` that says why.
    static func parse(_ text: String) throws(LiveRequestError) -> LiveClientMessage {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
            throw LiveRequestError(.badRequest, "a message is a JSON object")
        }
        switch object["type"] as? String {
        case "subscribe":
            guard let items = object["subscriptions"] as? [[String: Any]], !items.isEmpty else {
                throw LiveRequestError(.badRequest, "subscribe needs \"subscriptions\": [{\"id\":0,\"query\":\"name\",\"parameters\":{…}}]")
            }
            var specs: [SubscriptionSpec] = []
            for item in items {
                let id = try subscriptionID(item["id"])
                guard let name = item["query"] as? String, !name.isEmpty else {
                    throw LiveRequestError(.badRequest, "subscription \(id) has no query name", subscription: id)
                }
                guard !specs.contains(where: { $0.id == id }) else {
                    throw LiveRequestError(.badRequest, "subscription id \(id) is given twice", subscription: id)
                }
                var parameters: String?
                if let value = item["parameters"], !(value is NSNull) {
                    guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]) else {
                        throw LiveRequestError(.badRequest, "the parameters of subscription \(id) are not JSON", subscription: id)
                    }
                    parameters = String(decoding: data, as: UTF8.self)
                }
                specs.append(SubscriptionSpec(id: id, name: name, parameters: parameters))
            }
            let lastEventID = object["lastEventId"] as? String
            return .subscribe(specs, lastEventID: lastEventID)
        case "unsubscribe":
            guard let ids = object["ids"] as? [Any] else {
                throw LiveRequestError(.badRequest, "unsubscribe needs \"ids\": [0, …]")
            }
            return .unsubscribe(try ids.map { (value) throws(LiveRequestError) in try subscriptionID(value) })
        default:
            throw LiveRequestError(.badRequest, "a message's \"type\" is \"subscribe\" or \"unsubscribe\"")
        }
    }

    private static func subscriptionID(_ value: Any?) throws(LiveRequestError) -> Int {
        guard let number = value as? NSNumber, let id = Int(exactly: number.doubleValue), id >= 0 else {
            throw LiveRequestError(.badRequest, "a subscription id is a non-negative integer")
        }
        return id
    }
}
