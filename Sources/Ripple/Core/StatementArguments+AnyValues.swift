import Foundation

extension StatementArguments {
    /// Arguments from an array of any values (an `NSArray`); nil unless every value is
    /// `DatabaseValueConvertible` (or `NSNull`, which is NULL).
    public init?(_ array: [Any]) {
        var values: [(any DatabaseValueConvertible)?] = []
        for value in array {
            guard let converted = databaseConvertible(value) else { return nil }
            values.append(converted)
        }
        self.init(values)
    }

    /// Named arguments from a dictionary of any values (an `NSDictionary`); nil unless
    /// every key is a `String` and every value is `DatabaseValueConvertible` (or `NSNull`).
    public init?(_ dictionary: [AnyHashable: Any]) {
        var values: [String: (any DatabaseValueConvertible)?] = [:]
        for (key, value) in dictionary {
            guard let name = key as? String, let converted = databaseConvertible(value) else { return nil }
            values[name] = converted
        }
        self.init(values)
    }
}

/// `value` of an Objective-C collection as a database value: `.some(nil)` for `NSNull`,
/// nil when it is none.
func databaseConvertible(_ value: Any) -> (any DatabaseValueConvertible)?? {
    if value is NSNull { return .some(nil) }
    return (value as? any DatabaseValueConvertible).map { .some($0) }
}
