import Foundation

/// A format that prints one line per row, for reading by a developer: its output may
/// change in future versions, and is meant for neither programs nor tests.
///
/// Values are separated by `|` by default. Blobs print as text when they are UTF-8, as a
/// UUID when they are 16 other bytes, and as an SQL literal (`X'80'`) otherwise.
///
/// ```swift
/// // Arthur|500
/// // Barbara|1000
/// try db.dumpRequest(Player.all(), format: .debug())
/// ```
public struct DebugDumpFormat: Sendable {
    /// Whether the column names are printed before the first row.
    public var header: Bool

    /// The text between two values.
    public var separator: String

    /// The text printed for NULL.
    public var nullValue: String

    private var lines = SeparatedLines()

    /// A debug format.
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

extension DebugDumpFormat: DumpFormat {
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        let nullValue = nullValue
        lines.writeRow(statement, header: header, separator: separator, to: &stream, names: { $0 }) { values in
            values.map { value in
                guard case .blob(let data) = value else { return value.plainText(nullValue: nullValue) }
                return Self.debugDescription(of: data)
            }
        }
    }

    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        lines.statementDidEnd()
    }

    private static func debugDescription(of data: Data) -> String {
        let bytes = [UInt8](data)
        if let text = bytes.withUnsafeBufferPointer(validatedString) { return text }
        if bytes.count == 16 { return UUID(uuid: bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }).uuidString }
        return "X'"
            + bytes.map { byte in
                let hex = String(byte, radix: 16, uppercase: true)
                return byte < 0x10 ? "0" + hex : hex
            }.joined() + "'"
    }
}

extension DumpFormat where Self == DebugDumpFormat {
    /// A format that prints one line per row, for reading by a developer: its output may
    /// change in future versions, and is meant for neither programs nor tests.
    ///
    /// Values are separated by `|` by default. Blobs print as text when they are UTF-8, as
    /// a UUID when they are 16 other bytes, and as an SQL literal (`X'80'`) otherwise.
    ///
    /// ```swift
    /// // Arthur|500
    /// // Barbara|1000
    /// try db.dumpRequest(Player.all(), format: .debug())
    /// ```
    ///
    /// - Parameters:
    ///   - header: Whether the column names are printed before the first row.
    ///   - separator: The text between two values.
    ///   - nullValue: The text printed for NULL.
    public static func debug(header: Bool = false, separator: String = "|", nullValue: String = "") -> Self {
        DebugDumpFormat(header: header, separator: separator, nullValue: nullValue)
    }
}
