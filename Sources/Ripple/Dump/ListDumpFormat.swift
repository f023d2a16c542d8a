/// A format that prints one line per row, with values between separators (`|` by
/// default). Blobs print as UTF-8 text.
///
/// ```swift
/// // Arthur|500
/// // Barbara|1000
/// try db.dumpRequest(Player.all(), format: .list())
/// ```
public struct ListDumpFormat: Sendable {
    /// Whether the column names are printed before the first row.
    public var header: Bool

    /// The text between two values.
    public var separator: String

    /// The text printed for NULL.
    public var nullValue: String

    private var lines = SeparatedLines()

    /// A list format.
    ///
    /// - Parameters:
    ///   - header: Whether the column names are printed before the first row.
    ///   - separator: The text between two values.
    ///   - nullValue: The text printed for NULL.
    public init(header: Bool = false, separator: String = "|", nullValue: String = "") {
        self.header = header
        self.separator = separator
        self.nullValue = nullValue
    }
}

extension ListDumpFormat: DumpFormat {
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        let nullValue = nullValue
        lines.writeRow(statement, header: header, separator: separator, to: &stream, names: { $0 }) { values in
            values.map { $0.plainText(nullValue: nullValue) }
        }
    }

    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        lines.statementDidEnd()
    }
}

extension DumpFormat where Self == ListDumpFormat {
    /// A format that prints one line per row, with values between separators (`|` by
    /// default). Blobs print as UTF-8 text.
    ///
    /// ```swift
    /// // Arthur|500
    /// // Barbara|1000
    /// try db.dumpRequest(Player.all(), format: .list())
    /// ```
    ///
    /// - Parameters:
    ///   - header: Whether the column names are printed before the first row.
    ///   - separator: The text between two values.
    ///   - nullValue: The text printed for NULL.
    public static func list(header: Bool = false, separator: String = "|", nullValue: String = "") -> Self {
        ListDumpFormat(header: header, separator: separator, nullValue: nullValue)
    }
}
