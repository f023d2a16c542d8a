import Hummingbird

/// Turns a request's `q` values into the shared queries it subscribes to: each is parsed,
/// looked up, authorized (now, and again when its grant expires, never per commit) and
/// given its parameters. Any
/// failure is a ``LiveRequestError`` that names the subscription at fault.
enum SubscriptionResolver {
    static func resolve<Context: RequestContext>(
        _ request: Request,
        context: Context,
        hub: LiveHub,
        authorize: @Sendable (Request, Context, LiveSubscription) async throws -> LiveGrant
    ) async throws(LiveRequestError) -> Resolved {
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
        authorize: @Sendable (Request, Context, LiveSubscription) async throws -> LiveGrant
    ) async throws(LiveRequestError) -> Resolved {
        var resolved = Resolved()
        for spec in specs {
            let index = spec.id
            guard let query = hub.queries[spec.name] else {
                throw LiveRequestError(.notFound, "unknown live query \"\(spec.name)\"", subscription: index)
            }
            let subscription = LiveSubscription(index: index, query: spec.name, parameters: spec.parameters)
            let grant = try await Self.authorize(subscription, request: request, context: context, authorize: authorize)
            do {
                let (parameters, fetch) = try query.makeFetch(spec.parameters, grant.scope)
                resolved.subscriptions.append((index, SharedQueryKey(name: spec.name, parameters: parameters, scope: grant.scope), fetch))
            } catch var error {
                error.subscription = index
                throw error
            }
            if let expires = grant.expires {
                resolved.expiring.append(.init(subscription: subscription, scope: grant.scope, expires: expires))
            }
        }
        return resolved
    }

    /// Runs the authorization of one subscription; a refusal names it.
    static func authorize<Context: RequestContext>(
        _ subscription: LiveSubscription,
        request: Request,
        context: Context,
        authorize: @Sendable (Request, Context, LiveSubscription) async throws -> LiveGrant
    ) async throws(LiveRequestError) -> LiveGrant {
        do {
            return try await authorize(request, context, subscription)
        } catch var error as LiveRequestError {
            error.subscription = subscription.index
            throw error
        } catch let error as any HTTPResponseError {
            throw LiveRequestError(error.status, "subscription to \"\(subscription.query)\" refused: \(error)", subscription: subscription.index)
        } catch {
            throw LiveRequestError(.forbidden, "subscription to \"\(subscription.query)\" refused: \(error)", subscription: subscription.index)
        }
    }
}

/// The shared queries of a request's subscriptions, and the grants among them that expire.
struct Resolved: Sendable {
    var subscriptions: [(index: Int, key: SharedQueryKey, job: LiveFetch)] = []
    var expiring: [Reauthorization.Grant] = []
}
