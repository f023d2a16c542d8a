/// One subscription of a connection, as its URL spells it: `q=<name>` or
/// `q=<name>:<JSON parameters>`. Its position in the URL is its id in the messages.
struct SubscriptionSpec: Equatable, Sendable {
    /// Its id in the messages: its position in an event stream's URL, the client's own
    /// on a WebSocket.
    var id: Int
    var name: String
    /// The JSON text of the parameters, as sent; nil when the subscription has none.
    var parameters: String?

    /// Parses the `q` values of a URL, in order.
    static func parse(_ values: [Substring], limit: Int) throws(LiveRequestError) -> [SubscriptionSpec] {
        guard !values.isEmpty else {
            throw LiveRequestError(.badRequest, "no subscription: add q=<name> or q=<name>:<JSON parameters> to the URL")
        }
        guard values.count <= limit else {
            throw LiveRequestError(.badRequest, "\(values.count) subscriptions, more than the \(limit) one connection may carry")
        }
        return try values.enumerated().map { (index, value) throws(LiveRequestError) in
            let name: Substring
            let parameters: Substring?
            if let colon = value.firstIndex(of: ":") {
                name = value[..<colon]
                parameters = value[value.index(after: colon)...]
            } else {
                name = value
                parameters = nil
            }
            guard !name.isEmpty else {
                throw LiveRequestError(.badRequest, "subscription \(index) has no query name", subscription: index)
            }
            return SubscriptionSpec(id: index, name: String(name), parameters: parameters.map(String.init))
        }
    }
}
