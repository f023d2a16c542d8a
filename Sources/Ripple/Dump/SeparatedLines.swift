/// What the formats that print one line per row share (debug, list, quote): a row's values
/// between separators, after a line of the column names for the first row of a statement
/// when the format prints a header.
struct SeparatedLines {
    private var isFirstRow = true

    /// Writes the row `statement` is on: `name` formats each column name of the header,
    /// `value` each value.
    mutating func writeRow(
        _ statement: Statement,
        header: Bool,
        separator: String,
        to stream: inout DumpStream,
        names: ([String]) throws -> [String],
        values: ([DumpedValue]) throws -> [String]
    ) rethrows {
        if isFirstRow {
            isFirstRow = false
            if header {
                stream.writeLine(try names(statement.columnNames).joined(separator: separator))
            }
        }
        stream.writeLine(try values(statement.dumpedValues).joined(separator: separator))
    }

    /// The statement is done: the next row is the first of another one.
    mutating func statementDidEnd() {
        isFirstRow = true
    }
}
