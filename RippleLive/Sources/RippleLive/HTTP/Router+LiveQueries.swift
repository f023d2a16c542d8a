import HTTPTypes
import Hummingbird

extension RouterMethods {
    /// Serves the live queries of `hub` as Server-Sent Events at `path`:
    /// `GET /live?q=<name>:<JSON parameters>&q=<name>` (see the protocol in the article).
    ///
    /// - parameter authorize: runs once per subscription, when the request comes, never
    ///   per commit: it returns the scope the subscription's value is shared in, or throws
    ///   to refuse it (a 403 response, or the status of an `HTTPResponseError`). By
    ///   default every subscription is ``LiveScope/public``.
    @discardableResult
    public func addLiveQueries(
        _ hub: LiveHub,
        at path: RouterPath = "live",
        authorize: @escaping @Sendable (Request, Context, LiveSubscription) async throws -> LiveScope = { _, _, _ in .public }
    ) -> Self {
        addLiveQueries(hub, at: path, authorizeUntil: { LiveGrant(try await authorize($0, $1, $2)) })
    }

    /// Serves the live queries of `hub` as Server-Sent Events at `path`, with grants that
    /// expire: when a subscription's grant expires, `authorizeUntil` runs again with the
    /// same request; a refusal then closes the connection (the client reconnects, with
    /// fresh credentials or to a 4xx), as does a scope that changed.
    @discardableResult
    public func addLiveQueries(
        _ hub: LiveHub,
        at path: RouterPath = "live",
        authorizeUntil: @escaping @Sendable (Request, Context, LiveSubscription) async throws -> LiveGrant
    ) -> Self {
        get(path) { request, context -> Response in
            let resolved: Resolved
            do throws(LiveRequestError) {
                resolved = try await SubscriptionResolver.resolve(request, context: context, hub: hub, authorize: authorizeUntil)
            } catch {
                return Response(
                    status: error.status,
                    headers: [.contentType: "application/json; charset=utf-8"],
                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: error.jsonBody)))
            }
            // The header is what `EventSource` sends when it reconnects; the parameter is
            // for a page that opens a new one after a reload, which cannot set headers.
            let lastEventID = request.headers[.lastEventID] ?? request.uri.queryParameters["lastEventId"].map(String.init)
            let plan = ResumePlan(lastEventID: lastEventID, epoch: hub.epoch, latest: hub.commitSequence)
            let reauthorize = Reauthorization.watchClosing(resolved.expiring, request: request, context: context, authorize: authorizeUntil)
            return Response(
                status: .ok,
                headers: [
                    .contentType: "text/event-stream",
                    .cacheControl: "no-cache",
                    // Proxies that buffer responses (nginx) must not hold the events back.
                    .xAccelBuffering: "no",
                ],
                body: ResponseBody { writer in
                    try await EventStreamConnection.run(
                        hub: hub, subscriptions: resolved.subscriptions, plan: plan, writer: &writer, reauthorize: reauthorize)
                })
        }
    }
}

extension HTTPField.Name {
    /// The id of the last event an `EventSource` received, sent when it reconnects.
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
    static let xAccelBuffering = HTTPField.Name("X-Accel-Buffering")!
}
