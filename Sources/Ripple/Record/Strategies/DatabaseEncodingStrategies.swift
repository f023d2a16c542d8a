import Foundation

/// How an `Encodable` record names the column of each of its coding keys; see
/// ``EncodableRecord/databaseColumnEncodingStrategy``.
public enum DatabaseColumnEncodingStrategy: Sendable {
    /// A key writes the column of its name.
    case useDefaultKeys
    /// A key writes the column of its name in snake case: `playerID` writes `player_id`.
    case convertToSnakeCase
    /// A key writes the column the closure names.
    case custom(@Sendable (any CodingKey) -> String)

    /// The column a key writes.
    func column(forKey key: some CodingKey) -> String {
        switch self {
        case .useDefaultKeys: return key.stringValue
        case .convertToSnakeCase: return SnakeCase.snakeCased(key.stringValue)
        case .custom(let column): return column(key)
        }
    }
}

/// How an `Encodable` record writes its `Date` properties; see
/// ``EncodableRecord/databaseDateEncodingStrategy(for:)``.
public enum DatabaseDateEncodingStrategy: Sendable {
    /// The conversion of `Date` as ``DatabaseValueConvertible``: UTC text
    /// (`"yyyy-MM-dd HH:mm:ss.SSS"`).
    case deferredToDate
    /// A double: seconds since 2001-01-01 UTC.
    case timeIntervalSinceReferenceDate
    /// A double: seconds since 1970-01-01 UTC.
    case timeIntervalSince1970
    /// An integer: whole seconds since 1970-01-01 UTC, rounded down.
    case secondsSince1970
    /// An integer: whole milliseconds since 1970-01-01 UTC, rounded down.
    case millisecondsSince1970
    /// ISO 8601 text (`2001-09-09T01:46:40Z`).
    case iso8601
    /// Text written by the formatter.
    case formatted(DateFormatter)
    /// The value the closure makes; nil stores NULL.
    case custom(@Sendable (Date) -> (any DatabaseValueConvertible)?)

    func databaseValue(of date: Date) -> DatabaseValue {
        switch self {
        case .deferredToDate:
            return date.databaseValue
        case .timeIntervalSinceReferenceDate:
            return date.timeIntervalSinceReferenceDate.databaseValue
        case .timeIntervalSince1970:
            return date.timeIntervalSince1970.databaseValue
        case .secondsSince1970:
            return Int64((date.timeIntervalSince1970).rounded(.down)).databaseValue
        case .millisecondsSince1970:
            return Int64((date.timeIntervalSince1970 * 1000).rounded(.down)).databaseValue
        case .iso8601:
            return Date.ISO8601FormatStyle().format(date).databaseValue
        case .formatted(let formatter):
            return formatter.string(from: date).databaseValue
        case .custom(let value):
            return value(date)?.databaseValue ?? .null
        }
    }
}

/// How an `Encodable` record writes its `Data` properties; see
/// ``EncodableRecord/databaseDataEncodingStrategy(for:)``.
public enum DatabaseDataEncodingStrategy: Sendable {
    /// A blob.
    case deferredToData
    /// UTF-8 text; data that is not UTF-8 is an encoding error.
    case text
    /// The value the closure makes; nil stores NULL.
    case custom(@Sendable (Data) -> (any DatabaseValueConvertible)?)

    func databaseValue(of data: Data) throws -> DatabaseValue {
        switch self {
        case .deferredToData:
            return data.databaseValue
        case .text:
            guard let string = String(data: data, encoding: .utf8) else {
                throw EncodingError.invalidValue(
                    data, .init(codingPath: [], debugDescription: "data that is not UTF-8 can not be stored as text"))
            }
            return string.databaseValue
        case .custom(let value):
            return value(data)?.databaseValue ?? .null
        }
    }
}

/// How an `Encodable` record writes its `UUID` properties; see
/// ``EncodableRecord/databaseUUIDEncodingStrategy(for:)``.
public enum DatabaseUUIDEncodingStrategy: Sendable {
    /// The conversion of `UUID` as ``DatabaseValueConvertible``: a 16-byte blob.
    case deferredToUUID
    /// Uppercase text: `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`.
    case uppercaseString
    /// Lowercase text: `e621e1f8-c36c-495a-93fc-0c247a3e6e5f`.
    case lowercaseString

    func databaseValue(of uuid: UUID) -> DatabaseValue {
        switch self {
        case .deferredToUUID: return uuid.databaseValue
        case .uppercaseString: return uuid.uuidString.databaseValue
        case .lowercaseString: return uuid.uuidString.lowercased().databaseValue
        }
    }
}
