import Foundation

// Foundation's reference types, stored as their value types are, as in GRDB. (Not NSString
// and NSData: their mutable subclasses keep them from being Sendable, which database
// values are in Ripple; use String and Data.)

extension NSNull: DatabaseValueConvertible {
    /// NULL.
    public var databaseValue: DatabaseValue { .null }

    /// Always nil, as in GRDB: NULL is read as a nil optional, not as `NSNull`.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        nil
    }
}

extension NSDate: DatabaseValueConvertible {
    /// The date, as `Date` stores it.
    public var databaseValue: DatabaseValue { (self as Date).databaseValue }

    /// The date, as `Date` reads it.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        Date.fromDatabaseValue(dbValue).flatMap { NSDate(timeIntervalSinceReferenceDate: $0.timeIntervalSinceReferenceDate) as? Self }
    }
}

extension NSNumber: DatabaseValueConvertible {
    /// As GRDB stores it: a number made from an integer or a boolean is an integer, one
    /// made from a `Float` or a `Double` is a double; an `NSDecimalNumber` is an integer
    /// when it is one that fits `Int64`, a double otherwise. (An unsigned integer above
    /// `Int64.max`, where GRDB stops the process, is a double.)
    public var databaseValue: DatabaseValue {
        if let decimal = self as? NSDecimalNumber {
            var value = decimal.decimalValue
            var rounded = Decimal()
            NSDecimalRound(&rounded, &value, 0, .plain)
            if rounded == value, value <= Decimal(Int64.max), value >= Decimal(Int64.min) { return int64Value.databaseValue }
            return doubleValue.databaseValue
        }
        switch String(cString: objCType) {
        case "f", "d":
            return doubleValue.databaseValue
        case "L", "Q":
            let unsigned = uint64Value
            return unsigned <= UInt64(Int64.max) ? Int64(unsigned).databaseValue : doubleValue.databaseValue
        default:
            return int64Value.databaseValue
        }
    }

    /// The number stored: an integer or a double, or text that reads as a decimal number
    /// (as ``Decimal`` reads it); nil for other values. `NSDecimalNumber` gets a decimal
    /// number.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        let isDecimal = self is NSDecimalNumber.Type
        switch dbValue.storage {
        case .int64(let integer): return (isDecimal ? NSDecimalNumber(value: integer) : NSNumber(value: integer)) as? Self
        case .double(let double): return (isDecimal ? NSDecimalNumber(value: double) : NSNumber(value: double)) as? Self
        case .string:
            guard let decimal = Decimal.fromDatabaseValue(dbValue) else { return nil }
            return NSDecimalNumber(decimal: decimal) as? Self
        default: return nil
        }
    }
}

extension NSURL: DatabaseValueConvertible {
    /// The URL, as `URL` stores it (its absolute string).
    public var databaseValue: DatabaseValue { (self as URL).databaseValue }

    /// The URL, as `URL` reads it.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        URL.fromDatabaseValue(dbValue).flatMap { NSURL(string: $0.absoluteString) as? Self }
    }
}

extension NSUUID: DatabaseValueConvertible {
    /// The UUID, as `UUID` stores it (16 bytes).
    public var databaseValue: DatabaseValue { (self as UUID).databaseValue }

    /// The UUID, as `UUID` reads it (16 bytes, or text in one of its spellings).
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        UUID.fromDatabaseValue(dbValue).flatMap { NSUUID(uuidString: $0.uuidString) as? Self }
    }
}
