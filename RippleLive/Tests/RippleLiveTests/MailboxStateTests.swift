import Hummingbird
@testable import RippleLive
import Testing

@Suite struct MailboxStateTests {
    func value(_ text: String) -> LiveOutcome { .value(ByteBuffer(string: text)) }
    func batch(_ sequence: UInt64, _ entries: [(Int, String)], reset: Bool = false) -> LiveBatch {
        LiveBatch(sequence: sequence, reset: reset, entries: entries.map { .init(index: $0.0, outcome: value($0.1)) })
    }

    @Test func aWaitingConsumerGetsTheBatchAtOnce() {
        var state = MailboxState()
        let result1 = state.take()
        #expect(result1 == .suspend)
        let action = state.post(batch(3, [(0, "a")]))
        #expect(action == .resume(.init(sequence: 3, reset: false, entries: [.init(index: 0, outcome: value("a"), skipped: 0)])))
        let result2 = state.take()
        #expect(result2 == .suspend)
    }

    @Test func aSlowConsumerGetsTheLatestValuesWithTheSkippedCounts() {
        var state = MailboxState()
        let result3 = state.post(batch(1, [(0, "a1"), (1, "b1")]))
        #expect(result3 == .none)
        let result4 = state.post(batch(2, [(0, "a2")]))
        #expect(result4 == .none)
        let result5 = state.post(batch(3, [(0, "a3")]))
        #expect(result5 == .none)
        #expect(state.take() == .message(.init(sequence: 3, reset: false, entries: [
            .init(index: 0, outcome: value("a3"), skipped: 2),
            .init(index: 1, outcome: value("b1"), skipped: 0),
        ])))
        #expect(state.skippedTotal == 2)
        let result6 = state.take()
        #expect(result6 == .suspend)
    }

    @Test func aResetDropsWhatWaited() {
        var state = MailboxState()
        _ = state.post(batch(1, [(0, "old")]))
        _ = state.post(batch(5, [(1, "new")], reset: true))
        let result7 = state.take()
        #expect(result7 == .message(.init(sequence: 5, reset: true, entries: [.init(index: 1, outcome: value("new"), skipped: 0)])))
    }

    @Test func aHeartbeatGoesOnlyWhenNothingElseWaits() {
        var state = MailboxState()
        _ = state.postHeartbeat()
        _ = state.post(batch(1, [(0, "a")]))
        let result8 = state.take()
        #expect(result8 == .message(.init(sequence: 1, reset: false, entries: [.init(index: 0, outcome: value("a"), skipped: 0)])))
        let result9 = state.take()
        #expect(result9 == .suspend)
        let result10 = state.postHeartbeat()
        #expect(result10 == .resume(.init(sequence: nil, reset: false, entries: [])))
    }

    @Test func finishWakesTheConsumerAndDropsLaterPosts() {
        var state = MailboxState()
        let result11 = state.take()
        #expect(result11 == .suspend)
        let result12 = state.finish()
        #expect(result12)
        let result13 = state.post(batch(1, [(0, "a")]))
        #expect(result13 == .none)
        let result14 = state.take()
        #expect(result14 == .finished)
    }
}
