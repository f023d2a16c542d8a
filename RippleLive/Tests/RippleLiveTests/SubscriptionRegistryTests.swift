import Hummingbird
@testable import RippleLive
import Testing

@Suite struct SubscriptionRegistryTests {
    typealias Registry = SubscriptionRegistry<String>
    let top = SharedQueryKey(name: "top", parameters: #"{"limit":3}"#, scope: .public)
    let mine = SharedQueryKey(name: "mine", parameters: "", scope: LiveScope("user:1"))

    func value(_ text: String) -> LiveOutcome { .value(ByteBuffer(string: text)) }
    func fetched(_ key: SharedQueryKey, _ text: String) -> Registry.Fetched {
        .init(key: key, outcome: value(text), observed: true)
    }

    @Test func subscribersOfOneQueryShareOneFetch() {
        var registry = Registry()
        let result1 = registry.subscribe(1, [(top, "job")], plan: .fresh)
        #expect(result1)
        let result2 = registry.subscribe(2, [(top, "job")], plan: .fresh)
        #expect(!result2)
        let work = registry.beginRound(sequence: 4)
        #expect(work.map(\.key) == [top])
        #expect(work.first?.observe == true)
        let (batches, again) = registry.finishRound([fetched(top, "[1]")])
        #expect(!again)
        #expect(batches.count == 2)
        for (_, batch) in batches {
            #expect(batch == LiveBatch(sequence: 4, reset: false, entries: [.init(index: 0, outcome: value("[1]"))]))
        }
    }

    @Test func subscriptionsAddedAndDroppedOnAnOpenConnection() {
        var registry = Registry()
        _ = registry.subscribe(1, [(index: 4, key: top, job: "t")], plan: .fresh)
        _ = registry.beginRound(sequence: 1)
        _ = registry.finishRound([fetched(top, "t1")])

        // A later subscription gets its first value alone, under its own id.
        let scheduled = registry.subscribe(1, [(index: 9, key: mine, job: "m")], plan: .fresh)
        #expect(scheduled)
        _ = registry.beginRound(sequence: 2)
        let (added, _) = registry.finishRound([fetched(mine, "m2")])
        #expect(added.map(\.1) == [LiveBatch(sequence: 2, reset: false, entries: [.init(index: 9, outcome: value("m2"))])])

        // The same query under two ids: dropping one keeps the connection a subscriber.
        _ = registry.subscribe(1, [(index: 5, key: top, job: "t")], plan: .fresh)
        _ = registry.beginRound(sequence: 3)
        _ = registry.finishRound([])
        registry.unsubscribe(1, [4], now: .now)
        #expect(registry.queries[top]?.subscribers == [1])
        _ = registry.regionDidChange(top)
        _ = registry.beginRound(sequence: 4)
        let (changed, _) = registry.finishRound([fetched(top, "t4")])
        #expect(changed.map(\.1) == [LiveBatch(sequence: 4, reset: false, entries: [.init(index: 5, outcome: value("t4"))])])

        registry.unsubscribe(1, [5], now: .now)
        #expect(registry.queries[top]?.subscribers.isEmpty == true)
        #expect(registry.queries[top]?.idleSince != nil)
        #expect(registry.queries[mine]?.subscribers == [1])
    }

    @Test func aChangeWhileARoundRunsWaitsForTheNextRound() {
        var registry = Registry()
        _ = registry.subscribe(1, [(top, "job")], plan: .fresh)
        _ = registry.beginRound(sequence: 1)
        let result3 = registry.regionDidChange(top)
        #expect(!result3)
        let (_, again) = registry.finishRound([fetched(top, "a")])
        #expect(again)
        let result4 = registry.beginRound(sequence: 2)
        #expect(result4.map(\.key) == [top])
    }

    @Test func anUnchangedValueIsNotSentAgain() {
        var registry = Registry()
        _ = registry.subscribe(1, [(top, "job")], plan: .fresh)
        _ = registry.beginRound(sequence: 1)
        _ = registry.finishRound([fetched(top, "a")])
        let result5 = registry.regionDidChange(top)
        #expect(result5)
        _ = registry.beginRound(sequence: 2)
        let (batches, _) = registry.finishRound([fetched(top, "a")])
        #expect(batches.isEmpty)
        #expect(registry.queries[top]?.result?.since == 1)
    }

    @Test func theValuesOfOneRoundReachAConnectionInOneBatch() {
        var registry = Registry()
        _ = registry.subscribe(1, [(top, "t"), (mine, "m")], plan: .fresh)
        _ = registry.beginRound(sequence: 1)
        _ = registry.finishRound([fetched(top, "t1"), fetched(mine, "m1")])
        _ = registry.regionDidChange(top)
        _ = registry.regionDidChange(mine)
        _ = registry.beginRound(sequence: 3)
        let (batches, _) = registry.finishRound([fetched(top, "t3"), fetched(mine, "m3")])
        #expect(batches.count == 1)
        #expect(batches.first?.1 == LiveBatch(sequence: 3, reset: false, entries: [
            .init(index: 0, outcome: value("t3")), .init(index: 1, outcome: value("m3")),
        ]))
    }

    @Test func aResumeGetsOnlyWhatChangedSinceItsID() {
        var registry = Registry()
        _ = registry.subscribe(1, [(top, "t"), (mine, "m")], plan: .fresh)
        _ = registry.beginRound(sequence: 5)
        _ = registry.finishRound([fetched(top, "t5"), fetched(mine, "m5")])
        _ = registry.regionDidChange(mine)
        _ = registry.beginRound(sequence: 8)
        _ = registry.finishRound([fetched(mine, "m8")])

        // Saw 8: nothing. Saw 5: only `mine`. Costs no fetch.
        let result6 = registry.subscribe(2, [(top, "t"), (mine, "m")], plan: .resume(after: 8))
        #expect(result6)
        let result7 = registry.subscribe(3, [(top, "t"), (mine, "m")], plan: .resume(after: 5))
        #expect(!result7)
        let result8 = registry.beginRound(sequence: 9)
        #expect(result8.isEmpty)
        let (batches, _) = registry.finishRound([])
        #expect(batches.count == 1)
        #expect(batches.first?.0 == 3)
        #expect(batches.first?.1 == LiveBatch(sequence: 9, reset: false, entries: [.init(index: 1, outcome: value("m8"))]))
    }

    @Test func aResetGetsEverythingEvenUnchanged() {
        var registry = Registry()
        _ = registry.subscribe(1, [(top, "t")], plan: .reset)
        _ = registry.beginRound(sequence: 2)
        let (batches, _) = registry.finishRound([fetched(top, "t")])
        #expect(batches.first?.1 == LiveBatch(sequence: 2, reset: true, entries: [.init(index: 0, outcome: value("t"))]))
    }

    @Test func aNewcomerWaitsForAllItsQueries() {
        var registry = Registry()
        _ = registry.subscribe(1, [(top, "t")], plan: .fresh)
        _ = registry.beginRound(sequence: 1)
        // Subscribes while the round runs: its new query is fetched by the next round.
        _ = registry.subscribe(2, [(top, "t"), (mine, "m")], plan: .fresh)
        let (first, again) = registry.finishRound([fetched(top, "t1")])
        #expect(first.map(\.0) == [1])
        #expect(again)
        let result9 = registry.beginRound(sequence: 2)
        #expect(result9.map(\.key) == [mine])
        let (second, _) = registry.finishRound([fetched(mine, "m2")])
        #expect(second.map(\.0) == [2])
        #expect(second.first?.1.entries.count == 2)
    }

    @Test func aFailureIsAnOutcomeLikeAValue() {
        var registry = Registry()
        _ = registry.subscribe(1, [(top, "t")], plan: .fresh)
        _ = registry.beginRound(sequence: 1)
        let (batches, _) = registry.finishRound([.init(key: top, outcome: .failure("no such table"), observed: false)])
        #expect(batches.first?.1.entries == [.init(index: 0, outcome: .failure("no such table"))])
        // A query whose region is not observed tries again for a newcomer.
        _ = registry.subscribe(2, [(top, "t")], plan: .fresh)
        let result10 = registry.beginRound(sequence: 1)
        #expect(result10.first?.observe == true)
    }

    @Test func aQueryWithoutSubscribersExpiresAfterTheGracePeriod() {
        var registry = Registry()
        let start = ContinuousClock.now
        _ = registry.subscribe(1, [(top, "t")], plan: .fresh)
        _ = registry.beginRound(sequence: 1)
        _ = registry.finishRound([fetched(top, "t")])
        registry.unsubscribe(1, now: start)
        let result11 = registry.expire(now: start + .seconds(1), grace: .seconds(5))
        #expect(result11.isEmpty)
        // Back within the grace period: kept, and no fetch.
        _ = registry.subscribe(2, [(top, "t")], plan: .fresh)
        let result12 = registry.beginRound(sequence: 1)
        #expect(result12.isEmpty)
        _ = registry.finishRound([])
        registry.unsubscribe(2, now: start + .seconds(2))
        let result13 = registry.expire(now: start + .seconds(6), grace: .seconds(5))
        #expect(result13.isEmpty)
        let result14 = registry.expire(now: start + .seconds(7), grace: .seconds(5))
        #expect(result14 == [top])
        #expect(!registry.contains(top))
    }
}
