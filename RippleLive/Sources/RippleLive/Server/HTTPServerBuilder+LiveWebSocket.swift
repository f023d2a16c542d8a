import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket

extension HTTPServerBuilder {
    /// An HTTP/1.1 server that upgrades WebSockets, tuned for live queries (see
    /// ``LiveServerChannel``): `http1WebSocketUpgrade(webSocketRouter:configuration:)` with
    /// the live server's connections.
    public static func liveHTTP1WebSocketUpgrade<WSResponderBuilder: HTTPResponderBuilder & SendableMetatype>(
        _ hub: LiveHub,
        webSocketRouter: WSResponderBuilder,
        configuration: HTTP1WebSocketUpgradeChannel.Configuration = .init()
    ) -> HTTPServerBuilder where WSResponderBuilder.Responder.Context: WebSocketRequestContext {
        let webSocketResponder = webSocketRouter.buildResponder()
        return HTTPServerBuilder { responder in
            LiveServerChannel(
                HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder, configuration: configuration),
                hub: hub)
        }
    }
}
