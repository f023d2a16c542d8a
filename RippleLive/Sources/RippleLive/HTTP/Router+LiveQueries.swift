import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers

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
            // The request's task keeps the memory of its deepest call until it ends (its
            // allocator's slabs): this closure awaits with a small frame, and builds its
            // response in a synchronous function.
            let resolution = await LiveRoute.resolve(request, context: context, hub: hub, authorize: authorizeUntil)
            return LiveRoute.response(resolution, request: request, context: context, hub: hub, authorize: authorizeUntil)
        }
    }
}

/// The route of the event streams, in two steps that leave little in the request's task,
/// which lives as long as its stream (Benchmarks/README.md, "Live queries").
enum LiveRoute {
    static func resolve<Context: RequestContext>(
        _ request: Request,
        context: Context,
        hub: LiveHub,
        authorize: @escaping @Sendable (Request, Context, LiveSubscription) async throws -> LiveGrant
    ) async -> Result<Resolved, LiveRequestError> {
        // In a task of its own, which ends with it: the authorizations run deep, and the
        // request's task would keep their frames' memory. (The task has the request's
        // task locals and priority, and is cancelled with it.)
        let task = Task { () async -> Result<Resolved, LiveRequestError> in
            do throws(LiveRequestError) {
                return .success(try await SubscriptionResolver.resolve(request, context: context, hub: hub, authorize: authorize))
            } catch {
                return .failure(error)
            }
        }
        return await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }

    static func response<Context: RequestContext>(
        _ resolution: Result<Resolved, LiveRequestError>,
        request: Request,
        context: Context,
        hub: LiveHub,
        authorize: @escaping @Sendable (Request, Context, LiveSubscription) async throws -> LiveGrant
    ) -> Response {
        let resolved: Resolved
        switch resolution {
        case .success(let value):
            resolved = value
        case .failure(let error):
            return Response(
                status: error.status,
                headers: [.contentType: "application/json; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: error.jsonBody)))
        }
        // The header is what `EventSource` sends when it reconnects; the parameter is
        // for a page that opens a new one after a reload, which cannot set headers.
        let lastEventID = request.headers[.lastEventID] ?? request.uri.queryParameters["lastEventId"].map(String.init)
        let plan = ResumePlan(lastEventID: lastEventID, epoch: hub.epoch, latest: hub.commitSequence)
        let reauthorize = Reauthorization.watchClosing(resolved.expiring, request: request, context: context, authorize: authorize)
        // Handed to the hub once, when the stream begins: the connection does not keep them.
        let subscriptions = Handoff(resolved.subscriptions)
        // Room for the `Date` field the server adds: the fields are not copied to grow.
        var headers = HTTPFields()
        headers.reserveCapacity(4)
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        // Proxies that buffer responses (nginx) must not hold the events back.
        headers[.xAccelBuffering] = "no"
        return Response(
            status: .ok,
            headers: headers,
            body: ResponseBody { writer in
                try await EventStreamConnection.run(
                    hub: hub, subscriptions: subscriptions, plan: plan, writer: &writer, reauthorize: reauthorize)
            })
    }
}

/// A value that one taker gets, then nobody holds: what a response's body needs only
/// when it begins.
final class Handoff<Value: Sendable>: Sendable {
    private let value: NIOLockedValueBox<Value?>

    init(_ value: Value) {
        self.value = NIOLockedValueBox(value)
    }

    /// The value, the first time; nil after.
    func take() -> Value? {
        value.withLockedValue { value in
            defer { value = nil }
            return value
        }
    }
}

extension HTTPField.Name {
    /// The id of the last event an `EventSource` received, sent when it reconnects.
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
    static let xAccelBuffering = HTTPField.Name("X-Accel-Buffering")!
}
