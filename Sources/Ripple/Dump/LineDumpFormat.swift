/// A format that prints one line per value, `column = value`, with the column names
/// aligned to the right, and a blank line between rows. Blobs print as UTF-8 text.
///
/// ```swift
/// //  name = Arthur
/// // score = 500
/// //
/// //  name = Barbara
/// // score = 1000
/// try db.dumpRequest(Player.all(), format: .line())
/// ```
public struct LineDumpFormat: Sendable {
    /// The text printed for NULL.
    public var nullValue: String

    private var isFirstRow = true

    /// A line format.
    ///
    /// - Parameter nullValue: The text printed for NULL.
    public init(nullValue: String = "") {
        self.nullValue = nullValue
    }
}

extension LineDumpFormat: DumpFormat {
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        let names = statement.columnNames
        guard let width = names.map(\.count).max() else { return }
        if isFirstRow {
            isFirstRow = false
        } else {
            stream.write("\n")
        }
        for (name, value) in zip(names, statement.dumpedValues) {
            stream.write(String(repeating: " ", count: width - name.count))
            stream.write(name)
            stream.write(" = ")
            stream.writeLine(value.plainText(nullValue: nullValue))
        }
    }

    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        // The rows of the next statement come after a blank line, if any comes.
        if !isFirstRow { stream.margin() }
        isFirstRow = true
    }
}

extension DumpFormat where Self == LineDumpFormat {
    /// A format that prints one line per value, `column = value`, with the column names
    /// aligned to the right, and a blank line between rows. Blobs print as UTF-8 text.
    ///
    /// ```swift
    /// //  name = Arthur
    /// // score = 500
    /// //
    /// //  name = Barbara
    /// // score = 1000
    /// try db.dumpRequest(Player.all(), format: .line())
    /// ```
    ///
    /// - Parameter nullValue: The text printed for NULL.
    public static func line(nullValue: String = "") -> Self {
        LineDumpFormat(nullValue: nullValue)
    }
}
