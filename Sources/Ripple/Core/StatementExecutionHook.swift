/// What the connection tells around each statement execution: the only thing Core knows
/// of observation. A connection has up to two hooks (`db.observation`): the broker, which
/// tells transaction observers, and the tracker of other processes' commits, which logs
/// this connection's commits for them.
class StatementExecutionHook {
    /// A statement that begins or ends a transaction or a savepoint starts, before
    /// ``statementWillStart(_:)`` (told to the tracker while it gathers writes).
    func transactionStatementWillStart(_ statement: Statement) {}
    /// A statement that may write or change the schema starts, or was compiled again (told
    /// to the tracker while it gathers writes).
    func writingStatementWillStart(_ statement: Statement) {}
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
