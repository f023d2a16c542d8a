import Foundation

/// Decimals are stored as text (`"0.5"`, `"-1"`), which keeps every digit: an SQLite
/// double would round them.
///
/// Reading accepts that text, integers and doubles; other values (and text that is not a
/// number) read as nil.
extension Decimal: DatabaseValueConvertible {
    /// The decimal as text, such as `"0.5"`.
    public var databaseValue: DatabaseValue {
        // `description` is written with a dot and no grouping, whatever the user's locale.
        DatabaseValue(storage: .string(description))
    }

    /// The decimal stored as text, an integer or a double; nil for other values.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Decimal? {
        switch dbValue.storage {
        case .int64(let integer): return Decimal(integer)
        case .double(let double): return Decimal(double)
        case .string(let string): return Decimal(string: string, locale: decimalPOSIXLocale)
        default: return nil
        }
    }
}

private let decimalPOSIXLocale = Locale(identifier: "en_US_POSIX")
