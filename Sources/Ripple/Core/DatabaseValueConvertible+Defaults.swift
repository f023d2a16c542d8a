import Foundation

// Conversions that types get for free, as in GRDB: an enum with a raw value, or a Codable
// type, adopts DatabaseValueConvertible with no code.
//
// ```swift
// enum Color: String, DatabaseValueConvertible { case red, green }   // stored as 'red'
// struct Point: Codable, DatabaseValueConvertible { var x, y: Int }  // stored as JSON text
// ```

extension DatabaseValueConvertible where Self: RawRepresentable, RawValue: DatabaseValueConvertible {
    /// The raw value's database value.
    public var databaseValue: DatabaseValue { rawValue.databaseValue }

    /// The value whose raw value is stored; nil when no case has it.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        RawValue.fromDatabaseValue(dbValue).flatMap(Self.init(rawValue:))
    }
}

extension DatabaseValueConvertible {
    public static func databaseJSONDecoder() -> JSONDecoder { .databaseDefault() }
    public static func databaseJSONEncoder() -> JSONEncoder { .databaseDefault() }
}

extension DatabaseValueConvertible where Self: Encodable {
    /// A single value (a wrapped string, say) stores that value; other values store JSON
    /// text, keys sorted. NULL when the value cannot be encoded.
    public var databaseValue: DatabaseValue {
        (try? encodeColumnValue(self, usingConversion: false, jsonEncoder: Self.databaseJSONEncoder)) ?? .null
    }
}

extension DatabaseValueConvertible where Self: Decodable {
    /// The value decoded from a single value, or from JSON text (or a blob of JSON); nil
    /// when it does not decode.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        try? decodeColumnValue(
            Self.self, dbValue, column: "", index: 0, statement: nil, usingConversion: false, jsonDecoder: Self.databaseJSONDecoder)
    }
}

extension DatabaseValueConvertible where Self: Encodable & RawRepresentable, RawValue: DatabaseValueConvertible {
    /// The raw value's database value (an enum with a raw value, and Codable).
    public var databaseValue: DatabaseValue { rawValue.databaseValue }
}

extension DatabaseValueConvertible where Self: Decodable & RawRepresentable, RawValue: DatabaseValueConvertible {
    /// The value whose raw value is stored (an enum with a raw value, and Codable).
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        RawValue.fromDatabaseValue(dbValue).flatMap(Self.init(rawValue:))
    }
}
