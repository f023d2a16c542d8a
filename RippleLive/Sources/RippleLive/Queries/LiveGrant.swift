import Foundation

/// What authorization grants a subscription: the scope its value is shared in, and the
/// time its credentials expire, when they do.
///
/// At that time the subscription is authorized again, with the same request (a session
/// that was revoked or a token past its expiry is refused then); never once per commit.
public struct LiveGrant: Sendable, Equatable {
    /// The scope the subscription's value is shared in.
    public var scope: LiveScope
    /// When the subscription must be authorized again; nil for never.
    public var expires: Date?

    /// A grant of `scope`, until `expires` (nil for as long as the connection lives).
    public init(_ scope: LiveScope, until expires: Date? = nil) {
        self.scope = scope
        self.expires = expires
    }
}
