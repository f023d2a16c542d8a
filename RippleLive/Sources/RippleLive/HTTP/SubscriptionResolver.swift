import Hummingbird

/// Turns a request's `q` values into the shared queries it subscribes to: each is parsed,
/// looked up, authorized once (now, never per commit) and given its parameters. Any
/// failure is a ``LiveRequestError`` that names the subscription at fault.
enum SubscriptionResolver {
    static func resolve<Context: RequestContext>(
        _ request: Request,
        context: Context,
        hub: LiveHub,
        authorize: @Sendable (Request, Context, LiveSubscription) async throws -> LiveScope
    ) async throws(LiveRequestError) -> [(index: Int, key: SharedQueryKey, job: LiveFetch)] {
        let specs = try SubscriptionSpec.parse(
            request.uri.queryParameters[values: "q"],
            limit: hub.configuration.maximumSubscriptionsPerConnection)
        return try await resolve(specs, request: request, context: context, hub: hub, authorize: authorize)
    }

    /// The shared queries of `specs`, each authorized with the request that carried them
    /// (a WebSocket's: the one that opened it).
    static func resolve<Context: RequestContext>(
        _ specs: [SubscriptionSpec],
        request: Request,
        context: Context,
        hub: LiveHub,
        authorize: @Sendable (Request, Context, LiveSubscription) async throws -> LiveScope
    ) async throws(LiveRequestError) -> [(index: Int, key: SharedQueryKey, job: LiveFetch)] {
        var subscriptions: [(index: Int, key: SharedQueryKey, job: LiveFetch)] = []
        for spec in specs {
            let index = spec.id
            guard let query = hub.queries[spec.name] else {
                throw LiveRequestError(.notFound, "unknown live query \"\(spec.name)\"", subscription: index)
            }
            let subscription = LiveSubscription(index: index, query: spec.name, parameters: spec.parameters)
            let scope: LiveScope
            do {
                scope = try await authorize(request, context, subscription)
            } catch var error as LiveRequestError {
                error.subscription = index
                throw error
            } catch let error as any HTTPResponseError {
                throw LiveRequestError(error.status, "subscription to \"\(spec.name)\" refused: \(error)", subscription: index)
            } catch {
                throw LiveRequestError(.forbidden, "subscription to \"\(spec.name)\" refused: \(error)", subscription: index)
            }
            do {
                let (parameters, fetch) = try query.makeFetch(spec.parameters, scope)
                subscriptions.append((index, SharedQueryKey(name: spec.name, parameters: parameters, scope: scope), fetch))
            } catch var error {
                error.subscription = index
                throw error
            }
        }
        return subscriptions
    }
}
