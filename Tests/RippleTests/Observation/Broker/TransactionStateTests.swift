import XCTest

@testable import Ripple

/// The broker's view of the current transaction, with plain values.
final class TransactionStateTests: XCTestCase {
    private struct Veto: Error {}

    /// The end of a statement that succeeded, with SQLite's answers given.
    private func finish(
        _ state: inout TransactionState, endsTransaction: Bool = false, insideTransaction: Bool = false,
        readOnly: Bool = false
    ) -> TransactionState.End {
        state.statementDidFinish(
            endsTransaction: { endsTransaction }, isInsideTransaction: { insideTransaction }, isReadOnly: { readOnly })
    }

    private func describe(_ end: TransactionState.End) -> String {
        switch end {
        case .none: return "none"
        case .commit: return "commit"
        case .rollback: return "rollback"
        case .forget: return "forget"
        case .commitUnlessVetoed: return "commitUnlessVetoed"
        case .rollbackThrowingVeto: return "rollbackThrowingVeto"
        }
    }

    func testAStatementOfAnOpenTransactionEndsNothing() {
        var state = TransactionState()
        state.statementRuns(insideTransaction: true)
        XCTAssertEqual(describe(state.statementWillStart()), "none")
        XCTAssertEqual(describe(finish(&state, insideTransaction: true)), "none")
        XCTAssertEqual(describe(state.statementDidFail()), "none")
    }

    func testACommitHookIsAnnouncedAfterTheStatement() {
        var state = TransactionState()
        state.statementRuns(insideTransaction: false)
        state.commitHook(vetoedBy: nil)
        XCTAssertEqual(describe(finish(&state)), "commit")
    }

    func testACommitThatHappenedOutsideOfAStatementIsAnnouncedBeforeTheNextOne() {
        var state = TransactionState()
        state.commitHook(vetoedBy: nil)
        XCTAssertEqual(describe(state.statementWillStart()), "commit")
        var rolledBack = TransactionState()
        rolledBack.statementRuns(insideTransaction: true)
        XCTAssertEqual(describe(rolledBack.rollbackHook()), "endExecution")
        XCTAssertEqual(describe(rolledBack.statementWillStart()), "rollback")
    }

    func testAVetoedCommitRollsBackAndThrowsTheObserversError() {
        var state = TransactionState()
        state.statementRuns(insideTransaction: true)
        state.commitHook(vetoedBy: Veto())
        // SQLite rolls back the vetoed commit: the hook changes nothing more.
        XCTAssertEqual(describe(state.rollbackHook()), "endExecution")
        XCTAssertEqual(describe(finish(&state)), "rollbackThrowingVeto")
        XCTAssertTrue(state.vetoError is Veto)
        var failed = TransactionState()
        failed.commitHook(vetoedBy: Veto())
        XCTAssertEqual(describe(failed.statementDidFail()), "rollbackThrowingVeto")
    }

    func testTheRollbackOfAnExplicitTransactionIsAnnounced() {
        var state = TransactionState()
        state.statementRuns(insideTransaction: true)
        XCTAssertEqual(describe(state.rollbackHook()), "endExecution")
        XCTAssertEqual(describe(finish(&state)), "rollback")
        var failed = TransactionState()
        failed.statementRuns(insideTransaction: true)
        _ = failed.rollbackHook()
        XCTAssertEqual(describe(failed.statementDidFail()), "rollback")
    }

    func testARollbackInAReadOnlyAccessIsForgotten() {
        var state = TransactionState()
        state.statementRuns(insideTransaction: true)
        _ = state.rollbackHook()
        XCTAssertEqual(describe(finish(&state, readOnly: true)), "forget")
    }

    func testAnImplicitRollbackFollowedBySuccessWasARetry() {
        var state = TransactionState()
        state.statementRuns(insideTransaction: false)
        XCTAssertEqual(describe(state.rollbackHook()), "discardChanges")
        XCTAssertEqual(describe(finish(&state)), "none")
        guard case .open = state.phase else { return XCTFail("the transaction goes on") }
    }

    func testAnImplicitRollbackFollowedByFailureIsForgottenUnlessObserversHeardSomething() {
        var quiet = TransactionState()
        quiet.statementRuns(insideTransaction: false)
        _ = quiet.rollbackHook()
        XCTAssertEqual(describe(quiet.statementDidFail()), "forget")
        var told = TransactionState()
        told.statementRuns(insideTransaction: false)
        told.toldObservers = true
        _ = told.rollbackHook()
        XCTAssertEqual(describe(told.statementDidFail()), "rollback")
    }

    func testAnImplicitRollbackIsForgottenByTheNextStatement() {
        var state = TransactionState()
        _ = state.rollbackHook()
        XCTAssertEqual(describe(state.statementWillStart()), "none")
        XCTAssertEqual(describe(state.statementDidFail()), "none")
    }

    func testATransactionThatWroteNothingIsCommittedWhenItsCodeOpenedIt() {
        var state = TransactionState()
        state.statementRuns(insideTransaction: true)
        XCTAssertEqual(describe(finish(&state, endsTransaction: true)), "commitUnlessVetoed")
        XCTAssertEqual(describe(finish(&state, endsTransaction: true, readOnly: true)), "forget")
        // Still inside a transaction (a savepoint released inside BEGIN): nothing ends.
        XCTAssertEqual(describe(finish(&state, endsTransaction: true, insideTransaction: true)), "none")
        // A COMMIT that opened no transaction of its own code: nothing to announce.
        var implicit = TransactionState()
        implicit.statementRuns(insideTransaction: false)
        XCTAssertEqual(describe(finish(&implicit, endsTransaction: true)), "none")
    }

    func testTheEndStartsAfresh() {
        var state = TransactionState()
        state.statementRuns(insideTransaction: true)
        state.toldObservers = true
        state.commitHook(vetoedBy: nil)
        state.end()
        XCTAssertFalse(state.isExplicit)
        XCTAssertFalse(state.toldObservers)
        guard case .open = state.phase else { return XCTFail("a new transaction is open") }
    }
}

extension TransactionStateTests {
    private func describe(_ effect: TransactionState.RollbackEffect) -> String {
        switch effect {
        case .endExecution: return "endExecution"
        case .discardChanges: return "discardChanges"
        }
    }
}
