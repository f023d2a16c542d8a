/// Who a subscription is made for, as far as its value is concerned: subscribers of the
/// same query with the same parameters share one observation only within one scope.
///
/// The authorization closure returns it once per subscription, when it is made: a query
/// whose value is the same for everyone is ``public``, one that depends on the user is
/// scoped to that user (`LiveScope("user:42")`), and its fetch reads the scope.
public struct LiveScope: Hashable, Sendable, CustomStringConvertible {
    /// The scope's name, compared as is.
    public var name: String

    /// A scope named `name`.
    public init(_ name: String) {
        self.name = name
    }

    /// The scope of values that are the same for every subscriber.
    public static let `public` = LiveScope("public")

    /// The scope's name.
    public var description: String { name }
}
