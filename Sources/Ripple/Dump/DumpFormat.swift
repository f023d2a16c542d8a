/// A type that prints database rows, for the dumping methods such as
/// ``DatabaseReader/dumpContent(format:to:)`` and ``Database/dumpSQL(_:format:to:)``.
///
/// The built-in formats follow the output modes of the SQLite command-line tool:
///
/// ```swift
/// try dbQueue.dumpSQL("SELECT * FROM player", format: .debug())
/// try dbQueue.dumpSQL("SELECT * FROM player", format: .json())
/// try dbQueue.dumpSQL("SELECT * FROM player", format: .line())
/// try dbQueue.dumpSQL("SELECT * FROM player", format: .list(separator: ","))
/// try dbQueue.dumpSQL("SELECT * FROM player", format: .quote(header: true))
/// ```
///
/// Each statement is printed by a fresh copy of the format, so that the state a format
/// keeps between rows starts anew for each statement.
public protocol DumpFormat {
    /// Writes the current row of `statement`, whose columns are read from its
    /// `sqliteStatement`.
    ///
    /// - Parameters:
    ///   - db: The connection.
    ///   - statement: The statement, positioned on the row.
    ///   - stream: Where to write.
    mutating func writeRow(
        _ db: Database,
        statement: Statement,
        to stream: inout DumpStream) throws

    /// Ends the output of `statement`, after its last row.
    ///
    /// - Parameters:
    ///   - db: The connection.
    ///   - statement: The statement whose rows were written.
    ///   - stream: Where to write.
    mutating func finalize(
        _ db: Database,
        statement: Statement,
        to stream: inout DumpStream)
}
