import Foundation
import Hummingbird
import NIOConcurrencyHelpers

/// The grants of one connection that expire, and the watch that authorizes their
/// subscriptions again when they do: at expiry, never per commit.
final class Reauthorization: Sendable {
    struct Grant: Sendable {
        var subscription: LiveSubscription
        var scope: LiveScope
        var expires: Date
    }

    private let grants = NIOLockedValueBox<[Int: Grant]>([:])

    func add(_ items: [Grant]) {
        grants.withLockedValue { grants in
            for item in items { grants[item.subscription.index] = item }
        }
    }

    func remove(_ ids: [Int]) {
        grants.withLockedValue { grants in
            for id in ids { grants.removeValue(forKey: id) }
        }
    }

    /// For an event stream, whose subscriptions are fixed: a watch of `grants` that throws
    /// the first refusal, which ends the connection; nil when none expires.
    static func watchClosing<Context: RequestContext>(
        _ grants: [Grant],
        request: Request,
        context: Context,
        authorize: @escaping @Sendable (Request, Context, LiveSubscription) async throws -> LiveGrant
    ) -> (@Sendable () async throws -> Void)? {
        guard !grants.isEmpty else { return nil }
        let reauthorization = Reauthorization()
        reauthorization.add(grants)
        return {
            try await reauthorization.watch(request: request, context: context, authorize: authorize, poll: .seconds(3600)) { _, error in
                throw error
            }
        }
    }

    /// Runs until cancelled: authorizes each subscription again when its grant expires,
    /// and hands `refused` those whose authorization now fails or whose scope changed.
    /// Wakes at the soonest expiry, and at least every `poll`, to see grants added since.
    func watch<Context: RequestContext>(
        request: Request,
        context: Context,
        authorize: @escaping @Sendable (Request, Context, LiveSubscription) async throws -> LiveGrant,
        poll: Duration,
        refused: @Sendable (Int, LiveRequestError) async throws -> Void
    ) async throws {
        while true {
            let now = Date()
            let due = grants.withLockedValue { $0.values.filter { $0.expires <= now } }
            for grant in due {
                let id = grant.subscription.index
                do throws(LiveRequestError) {
                    let renewed = try await SubscriptionResolver.authorize(grant.subscription, request: request, context: context, authorize: authorize)
                    guard renewed.scope == grant.scope else {
                        throw LiveRequestError(.forbidden, "subscription to \"\(grant.subscription.query)\" refused: its scope changed", subscription: id)
                    }
                    grants.withLockedValue { grants in
                        // Unsubscribed meanwhile: nothing to renew.
                        guard grants[id] != nil else { return }
                        grants[id] = renewed.expires.map { Grant(subscription: grant.subscription, scope: grant.scope, expires: $0) }
                    }
                } catch {
                    let present = grants.withLockedValue { $0.removeValue(forKey: id) != nil }
                    if present { try await refused(id, error) }
                }
            }
            let soonest = grants.withLockedValue { $0.values.map(\.expires).min() }
            let untilSoonest = soonest.map { Duration.milliseconds(max(0, Int64($0.timeIntervalSinceNow * 1000))) } ?? poll
            // Not below 10 ms: a grant renewed with an expiry already past would spin.
            try await Task.sleep(for: max(min(untilSoonest, poll), .milliseconds(10)))
        }
    }
}
