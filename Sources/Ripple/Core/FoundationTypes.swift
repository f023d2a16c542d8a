import CSQLite
import Foundation

extension Data: DatabaseValueConvertible, _ColumnTypeCheckingConvertible {
    /// Stored as a blob (an empty Data is an empty blob, not NULL).
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .blob(self)) }

    /// Binds a blob (an empty one for empty data, not NULL).
    public func bind(to sqliteStatement: OpaquePointer, at index: CInt) -> CInt {
        withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else {
                // A blob of no byte needs an address (a null one binds NULL): traces show
                // `x''`, where a zeroblob shows `zeroblob(0)`.
                return Swift.withUnsafeBytes(of: 0 as UInt8) {
                    sqlite3_bind_blob(sqliteStatement, index, $0.baseAddress, 0, ripple_sqlite_transient())
                }
            }
            guard buffer.count <= Int(CInt.max) else { return SQLITE_TOOBIG }
            return sqlite3_bind_blob(sqliteStatement, index, base, CInt(buffer.count), ripple_sqlite_transient())
        }
    }
    /// Blobs, and the UTF-8 bytes of texts.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Data? {
        switch dbValue.storage {
        case .blob(let data): return data
        case .string(let string): return Data(string.utf8)
        default: return nil
        }
    }
    public init?(sqliteStatement: OpaquePointer, index: CInt) {
        let value = sqlite3_column_value(sqliteStatement, index)
        switch sqlite3_value_type(value) {
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            self = count == 0 ? Data() : Data(bytes: sqlite3_value_blob(value), count: count)
        case SQLITE_TEXT:
            let count = Int(sqlite3_value_bytes(value))
            self = count == 0 ? Data() : Data(bytes: sqlite3_value_text(value), count: count)
        default:
            return nil
        }
    }
}

extension UUID: DatabaseValueConvertible {
    /// Stored as a 16-byte blob.
    public var databaseValue: DatabaseValue {
        withUnsafeBytes(of: uuid) { DatabaseValue(storage: .blob(Data($0))) }
    }
    /// 16-byte blobs, and texts such as `"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"`.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UUID? {
        switch dbValue.storage {
        case .blob(let data) where data.count == 16:
            var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &uuid) { $0.copyBytes(from: data) }
            return UUID(uuid: uuid)
        case .string(let string):
            return UUID(uuidString: string)
        default:
            return nil
        }
    }
}

/// Dates are stored as UTC text, `"yyyy-MM-dd HH:mm:ss.SSS"`, which sorts chronologically
/// and is understood by SQLite's date functions.
///
/// Reading accepts that format and its variants (`"yyyy-MM-dd"`, `"yyyy-MM-dd HH:mm"`,
/// a `T` separator, any number of fraction digits, a trailing `Z` or `±HH:MM` offset),
/// and numbers, read as seconds since 1970-01-01 00:00:00 UTC.
extension Date: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        DatabaseValue(storage: .string(DateText.format(self)))
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Date? {
        switch dbValue.storage {
        case .int64(let int): return Date(timeIntervalSince1970: TimeInterval(int))
        case .double(let double): return Date(timeIntervalSince1970: double)
        case .string(let string): return DateText.parse(string)
        default: return nil
        }
    }

    /// The date of a [Julian day](https://en.wikipedia.org/wiki/Julian_day), as SQLite's
    /// `julianday()` returns it, to the millisecond as SQLite reads it; nil outside of the
    /// days SQLite handles (years 0000 to 9999) or for a NaN or infinite number.
    ///
    /// ```swift
    /// let request: SQLRequest<Double> = "SELECT julianday('now')"
    /// let now = try request.fetchOne(db).flatMap(Date.init(julianDay:))
    /// ```
    public init?(julianDay: Double) {
        // SQLite's milliseconds since the Julian epoch, rounded as its date functions do.
        let milliseconds = (julianDay * 86_400_000 + 0.5).rounded(.down)
        guard milliseconds.isFinite, milliseconds >= 0, milliseconds <= 464_269_060_799_999 else { return nil }
        // Julian day 2440587.5 is 1970-01-01T00:00:00Z.
        self.init(timeIntervalSince1970: (milliseconds - 210_866_760_000_000) / 1000)
    }
}

/// Date text without DateFormatter: exact, thread-safe, and fast.
enum DateText {
    static func format(_ date: Date) -> String {
        let totalMilliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (days, msOfDay) = floorDivMod(totalMilliseconds, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        let hour = msOfDay / 3_600_000
        let minute = msOfDay / 60_000 % 60
        let second = msOfDay / 1000 % 60
        let millisecond = msOfDay % 1000
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + " "
            + pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2) + "." + pad(millisecond, 3)
    }

    static func parse(_ string: String) -> Date? {
        var scanner = Scanner(Array(string.utf8))
        guard let year = scanner.digits(4), scanner.skip(UInt8(ascii: "-")),
            let month = scanner.digits(2), scanner.skip(UInt8(ascii: "-")),
            let day = scanner.digits(2),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var seconds = Double(days(fromCivil: year, month, day)) * 86_400
        if scanner.skip(UInt8(ascii: " ")) || scanner.skip(UInt8(ascii: "T")) {
            guard let hour = scanner.digits(2), scanner.skip(UInt8(ascii: ":")),
                let minute = scanner.digits(2), hour < 24, minute < 60
            else { return nil }
            seconds += Double(hour * 3600 + minute * 60)
            if scanner.skip(UInt8(ascii: ":")) {
                guard let second = scanner.digits(2), second < 60 else { return nil }
                seconds += Double(second)
                if scanner.skip(UInt8(ascii: ".")) {
                    guard let fraction = scanner.fraction() else { return nil }
                    seconds += fraction
                }
            }
            if scanner.skip(UInt8(ascii: "Z")) {
            } else if let sign = scanner.peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                scanner.index += 1
                guard let offsetHour = scanner.digits(2) else { return nil }
                _ = scanner.skip(UInt8(ascii: ":"))
                guard let offsetMinute = scanner.digits(2) else { return nil }
                let offset = Double(offsetHour * 3600 + offsetMinute * 60)
                seconds += sign == UInt8(ascii: "+") ? -offset : offset
            }
        }
        guard scanner.isAtEnd else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    private struct Scanner {
        var bytes: [UInt8]
        var index = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        var isAtEnd: Bool { index == bytes.count }
        func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }
        mutating func skip(_ byte: UInt8) -> Bool {
            guard peek() == byte else { return false }
            index += 1
            return true
        }
        mutating func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += count
            return value
        }
        mutating func fraction() -> Double? {
            var value = 0.0
            var scale = 0.1
            let start = index
            while let byte = peek(), (48...57).contains(byte) {
                value += Double(byte - 48) * scale
                scale /= 10
                index += 1
            }
            return index > start ? value : nil
        }
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    private static func floorDivMod(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a >= 0 ? a / b : (a - b + 1) / b
        return (q, a - q * b)
    }

    // Howard Hinnant's days-from-civil algorithms (proleptic Gregorian calendar).
    static func civil(fromDays z: Int64) -> (Int64, Int64, Int64) {
        let z = z + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}

/// URLs are stored as their absolute string.
extension URL: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { absoluteString.databaseValue }

    /// Texts that are URLs (and their UTF-8 bytes, as blobs).
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> URL? {
        switch dbValue.storage {
        case .string(let string): return URL(string: string)
        case .blob(let data): return String(data: data, encoding: .utf8).flatMap { URL(string: $0) }
        default: return nil
        }
    }
}
