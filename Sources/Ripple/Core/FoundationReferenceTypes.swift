import Foundation

// Foundation's reference types, stored as their value types are, as in GRDB. (Not NSString
// and NSData: their mutable subclasses keep them from being Sendable, which database
// values are in Ripple; use String and Data.)

extension NSNull: DatabaseValueConvertible {
    /// NULL.
    public var databaseValue: DatabaseValue { .null }

    /// `NSNull()` for NULL, nil otherwise.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        dbValue.isNull ? NSNull() as? Self : nil
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
    /// An integer when the number is one that fits `Int64`, a double otherwise.
    public var databaseValue: DatabaseValue {
        let integer = int64Value
        if NSNumber(value: integer).isEqual(to: self) { return integer.databaseValue }
        return doubleValue.databaseValue
    }

    /// The number stored (an integer or a double); nil for other values.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        switch dbValue.storage {
        case .int64(let integer): return NSNumber(value: integer) as? Self
        case .double(let double): return NSNumber(value: double) as? Self
        default: return nil
        }
    }
}
