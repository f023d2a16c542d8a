/// What makes two subscriptions share one observation: the same query, the same
/// parameters (canonical JSON), the same scope.
struct SharedQueryKey: Hashable, Sendable, CustomStringConvertible {
    var name: String
    var parameters: String
    var scope: LiveScope

    var description: String { "\(name):\(parameters)@\(scope)" }
}
