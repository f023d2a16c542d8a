/// One subscription of a request, as the authorization closure sees it, before any value
/// is fetched.
public struct LiveSubscription: Sendable, Equatable {
    /// Its position in the URL: its id in the messages.
    public var index: Int
    /// The live query's name.
    public var query: String
    /// The JSON text of its parameters, as sent; nil without parameters.
    public var parameters: String?
}
