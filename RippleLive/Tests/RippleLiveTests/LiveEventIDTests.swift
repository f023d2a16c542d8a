@testable import RippleLive
import Testing

@Suite struct LiveEventIDTests {
    @Test func formatsEpochDashSequence() {
        #expect(LiveEventID(epoch: "1f3a", sequence: 42).description == "1f3a-42")
    }

    @Test func parsesWhatItFormats() {
        let id = LiveEventID(epoch: "abc123", sequence: 7)
        #expect(LiveEventID(parsing: id.description) == id)
    }

    @Test func refusesWhatIsNotAnID() {
        for text in ["", "-", "abc", "abc-", "-12", "xyz-12", "abc-1x", "abc--1", "abc-+1", "abc-99999999999999999999"] {
            #expect(LiveEventID(parsing: text) == nil, "\(text)")
        }
    }
}

@Suite struct ResumePlanTests {
    @Test func noIDIsAFreshStart() {
        #expect(ResumePlan(lastEventID: nil, epoch: "e1", latest: 20) == .fresh)
        #expect(ResumePlan(lastEventID: "", epoch: "e1", latest: 20) == .fresh)
    }

    @Test func anIDOfThisEpochResumes() {
        #expect(ResumePlan(lastEventID: "e1-12", epoch: "e1", latest: 20) == .resume(after: 12))
    }

    @Test func anIDOfAnotherEpochOrGarbageResets() {
        #expect(ResumePlan(lastEventID: "e0-12", epoch: "e1", latest: 20) == .reset)
        #expect(ResumePlan(lastEventID: "garbage", epoch: "e1", latest: 20) == .reset)
    }

    @Test func anIDBeyondTheLatestCommitResets() {
        #expect(ResumePlan(lastEventID: "e1-21", epoch: "e1", latest: 20) == .reset)
        #expect(ResumePlan(lastEventID: "e1-20", epoch: "e1", latest: 20) == .resume(after: 20))
    }

    @Test func aResumeSendsOnlyValuesNewerThanTheID() {
        let plan = ResumePlan.resume(after: 12)
        #expect(!plan.sends(valueSince: 3))
        #expect(!plan.sends(valueSince: 12))
        #expect(plan.sends(valueSince: 13))
        #expect(ResumePlan.fresh.sends(valueSince: 0))
        #expect(ResumePlan.reset.sends(valueSince: 0))
    }
}

@Suite struct SubscriptionSpecTests {
    @Test func parsesNamesAndParameters() throws {
        let specs = try SubscriptionSpec.parse(["players", #"player:{"id":1}"#, "a:b:c"], limit: 8)
        #expect(specs == [
            SubscriptionSpec(id: 0, name: "players", parameters: nil),
            SubscriptionSpec(id: 1, name: "player", parameters: #"{"id":1}"#),
            SubscriptionSpec(id: 2, name: "a", parameters: "b:c"),
        ])
    }

    @Test func refusesNoSubscriptionTooManyAndNoName() {
        #expect(throws: LiveRequestError.self) { try SubscriptionSpec.parse([], limit: 8) }
        #expect(throws: LiveRequestError.self) { try SubscriptionSpec.parse(["a", "b", "c"], limit: 2) }
        do {
            _ = try SubscriptionSpec.parse(["a", ":{}"], limit: 8)
            Issue.record("no error")
        } catch {
            #expect(error.status == .badRequest)
            #expect(error.subscription == 1)
        }
    }
}
