/// What the connection tells around each statement execution: the only thing Core knows
/// of transaction observation.
class StatementExecutionHook {
    func statementWillStart(_ statement: Statement) throws {}
    func statementDidFinish(_ statement: Statement) throws {}
    /// Returns the error to throw.
    func statementDidFail(_ statement: Statement, error: any Error) -> any Error { error }
    /// SQLite is compiling a stepping statement again (called from inside `sqlite3_step`).
    func recompilationDidBegin() {}
    /// `statement` has a new report, from its new compilation.
    func statementWasRecompiled(_ statement: Statement) {}
    func connectionWillClose() {}
}
