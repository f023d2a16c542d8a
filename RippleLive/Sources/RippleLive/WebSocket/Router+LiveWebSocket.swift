import Hummingbird
import HummingbirdWebSocket

extension RouterMethods where Context: WebSocketRequestContext {
    /// Serves the live queries of `hub` over WebSocket at `path`, with the messages of the
    /// event stream (see the article): one socket carries several subscriptions, which the
    /// client adds and removes with `subscribe` and `unsubscribe` messages.
    ///
    /// The application's server must upgrade WebSocket connections:
    /// `Application(router: router, server: .http1WebSocketUpgrade(webSocketRouter: router))`.
    ///
    /// - parameter authorize: runs once per subscription, when its `subscribe` message
    ///   comes, never per commit, with the request that opened the socket: it returns the
    ///   scope the subscription's value is shared in, or throws to refuse it (a `refused`
    ///   message with status 403, or the status of an `HTTPResponseError`).
    @discardableResult
    public func addLiveWebSocket(
        _ hub: LiveHub,
        at path: RouterPath = "live/ws",
        authorize: @escaping @Sendable (Request, Context, LiveSubscription) async throws -> LiveScope = { _, _, _ in .public }
    ) -> Self {
        addLiveWebSocket(hub, at: path, authorizeUntil: { LiveGrant(try await authorize($0, $1, $2)) })
    }

    /// Serves the live queries of `hub` over WebSocket at `path`, with grants that expire:
    /// when a subscription's grant expires, `authorizeUntil` runs again with the request
    /// that opened the socket; a refusal (or a scope that changed) ends that subscription
    /// with a `refused` message, and the socket stays.
    @discardableResult
    public func addLiveWebSocket(
        _ hub: LiveHub,
        at path: RouterPath = "live/ws",
        authorizeUntil: @escaping @Sendable (Request, Context, LiveSubscription) async throws -> LiveGrant
    ) -> Self {
        ws(path) { inbound, outbound, context in
            try await WebSocketConnection.run(
                hub: hub, request: context.request, context: context.requestContext,
                inbound: inbound, outbound: outbound, authorize: authorizeUntil)
        }
    }
}
