import CSQLite
import Foundation

/// A database value that holds date components, stored as text in one of SQLite's date
/// and time formats.
///
/// Use it for dates without a time, or times without a date, that `Date` can not express:
///
/// ```swift
/// let alarm = DatabaseDateComponents(DateComponents(hour: 7, minute: 30), format: .HM)
/// try db.execute(sql: "INSERT INTO alarm (time) VALUES (?)", arguments: [alarm]) // "07:30"
/// let time = try DatabaseDateComponents.fetchOne(db, sql: "SELECT time FROM alarm")
/// time?.dateComponents.hour // 7
/// ```
public struct DatabaseDateComponents: Sendable {
    /// The SQLite formats of date components. The raw value is the format's pattern.
    public enum Format: String, Sendable {
        /// `"yyyy-MM-dd"`.
        case YMD = "yyyy-MM-dd"

        /// `"yyyy-MM-dd HH:mm"`: as text, it sorts with SQLite's `CURRENT_TIMESTAMP`.
        case YMD_HM = "yyyy-MM-dd HH:mm"

        /// `"yyyy-MM-dd HH:mm:ss"`: as text, it sorts with SQLite's `CURRENT_TIMESTAMP`.
        case YMD_HMS = "yyyy-MM-dd HH:mm:ss"

        /// `"yyyy-MM-dd HH:mm:ss.SSS"`: as text, it sorts with SQLite's `CURRENT_TIMESTAMP`.
        case YMD_HMSS = "yyyy-MM-dd HH:mm:ss.SSS"

        /// `"HH:mm"`.
        case HM = "HH:mm"

        /// `"HH:mm:ss"`.
        case HMS = "HH:mm:ss"

        /// `"HH:mm:ss.SSS"`.
        case HMSS = "HH:mm:ss.SSS"
    }

    /// The date components.
    public let dateComponents: DateComponents

    /// The format of the text stored in the database.
    public let format: Format

    /// Creates date components stored in `format`.
    ///
    /// ```swift
    /// let day = DatabaseDateComponents(DateComponents(year: 2018, month: 4, day: 21), format: .YMD)
    /// ```
    ///
    /// The stored text leaves out the components the format does not show, and writes the
    /// missing ones it shows as 0 (1 for month and day).
    public init(_ dateComponents: DateComponents, format: Format) {
        self.dateComponents = dateComponents
        self.format = format
    }
}

extension DatabaseDateComponents: DatabaseValueConvertible {
    /// The text of ``dateComponents`` in ``format``, such as `"2018-04-21 12:34"`.
    ///
    /// Nanoseconds are rounded to milliseconds.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .string(text)) }

    /// Date components read from text in one of these formats (SQLite's, see
    /// <https://www.sqlite.org/lang_datefunc.html>), or nil:
    ///
    /// - a date, `YYYY-MM-DD`, alone or followed by a space or `T` and a time;
    /// - a time, `HH:MM`, `HH:MM:SS` or `HH:MM:SS.SSS`, alone or after a date.
    ///
    /// A time may end with a time zone, `Z`, `+HH:MM` or `-HH:MM`, which sets
    /// `dateComponents.timeZone`. Fractions of seconds have one digit or more; the first
    /// three are read. The numbers are not range-checked: `"25:61"` reads as hour 25.
    ///
    /// ```swift
    /// let value = DatabaseDateComponents.fromDatabaseValue("2018-04-21T12:34Z".databaseValue)
    /// value?.format // .YMD_HM
    /// ```
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DatabaseDateComponents? {
        switch dbValue.storage {
        case .string(var string):
            return string.withUTF8 { DateComponentsParser.parse(UnsafeRawBufferPointer($0)) }
        case .blob(let data):
            // SQLite reads a blob as text, and so does GRDB.
            return data.withUnsafeBytes { DateComponentsParser.parse($0) }
        default:
            return nil
        }
    }

    /// The text stored in the database.
    var text: String {
        let components = dateComponents
        var text = ""
        if format.hasDate {
            text =
                Self.zeroPadded(components.year ?? 0, 4)
                + "-" + Self.zeroPadded(components.month ?? 1, 2)
                + "-" + Self.zeroPadded(components.day ?? 1, 2)
        }
        guard let precision = format.timePrecision else { return text }
        if !text.isEmpty { text += " " }
        text += Self.zeroPadded(components.hour ?? 0, 2) + ":" + Self.zeroPadded(components.minute ?? 0, 2)
        if precision != .minute {
            text += ":" + Self.zeroPadded(components.second ?? 0, 2)
        }
        if precision == .millisecond {
            // Capped: 999.6 ms must not write a fourth digit, which would read as 0.1 s.
            let milliseconds = (Double(components.nanosecond ?? 0) / 1_000_000).rounded()
            text += "." + Self.zeroPadded(Int(min(999, max(0, milliseconds))), 3)
        }
        return text
    }

    /// `value` in at least `width` characters, zeros after the sign, as printf's `%0*d`.
    private static func zeroPadded(_ value: Int, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let sign = value < 0 ? "-" : ""
        let zeros = max(0, width - sign.count - digits.count)
        return sign + String(repeating: "0", count: zeros) + digits
    }
}

extension DatabaseDateComponents: _ColumnTypeCheckingConvertible {
    /// The text (or blob) of the column, in the formats of ``fromDatabaseValue(_:)``.
    public init?(sqliteStatement: OpaquePointer, index: CInt) {
        let value = sqlite3_column_value(sqliteStatement, index)
        let start: UnsafeRawPointer?
        switch sqlite3_value_type(value) {
        case SQLITE_TEXT: start = UnsafeRawPointer(sqlite3_value_text(value))
        case SQLITE_BLOB: start = sqlite3_value_blob(value)
        default: return nil
        }
        // The byte count is asked after the bytes, as SQLite requires.
        guard let start,
            let parsed = DateComponentsParser.parse(
                UnsafeRawBufferPointer(start: start, count: Int(sqlite3_value_bytes(value))))
        else { return nil }
        self = parsed
    }
}

/// Encoded as the text stored in the database, such as `"2018-12-31"`; decoded from the
/// formats of ``fromDatabaseValue(_:)``.
extension DatabaseDateComponents: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let value = Self.fromDatabaseValue(DatabaseValue(storage: .string(string))) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "not a date or time in an SQLite format: \(String(reflecting: string))")
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

extension DatabaseDateComponents.Format {
    /// How precise the time of a format is.
    enum TimePrecision {
        case minute, second, millisecond
    }

    /// Whether the format starts with year, month and day.
    var hasDate: Bool {
        switch self {
        case .YMD, .YMD_HM, .YMD_HMS, .YMD_HMSS: return true
        case .HM, .HMS, .HMSS: return false
        }
    }

    /// The time part of the format, nil for a date alone.
    var timePrecision: TimePrecision? {
        switch self {
        case .YMD: return nil
        case .YMD_HM, .HM: return .minute
        case .YMD_HMS, .HMS: return .second
        case .YMD_HMSS, .HMSS: return .millisecond
        }
    }

    /// The format of a time, after a date or alone.
    init(timePrecision: TimePrecision, hasDate: Bool) {
        switch timePrecision {
        case .minute: self = hasDate ? .YMD_HM : .HM
        case .second: self = hasDate ? .YMD_HMS : .HMS
        case .millisecond: self = hasDate ? .YMD_HMSS : .HMSS
        }
    }
}

/// Reads the texts of `DatabaseDateComponents.fromDatabaseValue(_:)` from bytes, those of a
/// statement column or of a string, without making strings.
private struct DateComponentsParser {
    typealias Format = DatabaseDateComponents.Format

    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    private var result = DateComponents()

    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    static func parse(_ bytes: UnsafeRawBufferPointer) -> DatabaseDateComponents? {
        var parser = DateComponentsParser(bytes)
        let format: Format?
        // A colon after two characters starts a time alone; anything else must be a date.
        if bytes.count > 2 && bytes[2] == UInt8(ascii: ":") {
            format = parser.time().map { Format(timePrecision: $0, hasDate: false) }
        } else {
            format = parser.dateAndTime()
        }
        guard let format, parser.index == bytes.count else { return nil }
        return DatabaseDateComponents(parser.result, format: format)
    }

    /// `YYYY-MM-DD`, then maybe a space or `T` and a time.
    private mutating func dateAndTime() -> Format? {
        guard let year = number(digits: 4), skip("-"),
            let month = number(digits: 2), skip("-"),
            let day = number(digits: 2)
        else { return nil }
        result.year = year
        result.month = month
        result.day = day
        if index == bytes.count { return .YMD }
        guard skip(" ") || skip("T"), let precision = time() else { return nil }
        return Format(timePrecision: precision, hasDate: true)
    }

    /// `HH:MM`, `HH:MM:SS` or `HH:MM:SS.S...`, then maybe a time zone.
    private mutating func time() -> Format.TimePrecision? {
        guard let hour = number(digits: 2), skip(":"), let minute = number(digits: 2) else { return nil }
        result.hour = hour
        result.minute = minute
        var precision = Format.TimePrecision.minute
        if skip(":") {
            guard let second = number(digits: 2) else { return nil }
            result.second = second
            precision = .second
            if skip(".") {
                guard let nanosecond = fractionInNanoseconds() else { return nil }
                result.nanosecond = nanosecond
                precision = .millisecond
            }
        }
        return timeZoneIfAny() ? precision : nil
    }

    /// Reads `Z`, `+HH:MM` or `-HH:MM` if there is one; false for a malformed one, or an
    /// offset no time zone has.
    private mutating func timeZoneIfAny() -> Bool {
        if skip("Z") {
            result.timeZone = TimeZone(secondsFromGMT: 0)
            return true
        }
        let sign: Int
        if skip("+") {
            sign = 1
        } else if skip("-") {
            sign = -1
        } else {
            return true
        }
        guard let hours = number(digits: 2), skip(":"), let minutes = number(digits: 2),
            let timeZone = TimeZone(secondsFromGMT: sign * (hours * 3600 + minutes * 60))
        else { return false }
        result.timeZone = timeZone
        return true
    }

    /// One digit or more, in nanoseconds. Milliseconds only, as GRDB reads them: later
    /// digits are skipped, not rounded.
    private mutating func fractionInNanoseconds() -> Int? {
        var nanoseconds = 0
        var unit = 1_000_000_000
        var count = 0
        while let digit = digit() {
            if count < 3 {
                unit /= 10
                nanoseconds += digit * unit
            }
            count += 1
        }
        return count > 0 ? nanoseconds : nil
    }

    private mutating func number(digits count: Int) -> Int? {
        var value = 0
        for _ in 0..<count {
            guard let digit = digit() else { return nil }
            value = 10 * value + digit
        }
        return value
    }

    private mutating func digit() -> Int? {
        guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
        defer { index += 1 }
        return Int(bytes[index] - UInt8(ascii: "0"))
    }

    private mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }
}
