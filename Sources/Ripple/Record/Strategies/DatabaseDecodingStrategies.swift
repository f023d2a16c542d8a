import Foundation

/// How a `Decodable` record finds the column of each of its coding keys; see
/// ``FetchableRecord/databaseColumnDecodingStrategy``.
public enum DatabaseColumnDecodingStrategy: Sendable {
    /// A key reads the column of its name.
    case useDefaultKeys
    /// A key reads the column whose snake case name converts to it: `playerID` (or
    /// `playerId`) reads `player_id`.
    case convertFromSnakeCase
    /// A key reads the column the closure turns into it.
    case custom(@Sendable (String) -> any CodingKey)

    /// The coding key name a column answers to.
    func keyName(forColumn column: String) -> String {
        switch self {
        case .useDefaultKeys: return column
        case .convertFromSnakeCase: return SnakeCase.camelCased(column)
        case .custom(let key): return key(column).stringValue
        }
    }
}

/// How a `Decodable` record reads its `Date` properties; see
/// ``FetchableRecord/databaseDateDecodingStrategy(for:)``.
public enum DatabaseDateDecodingStrategy: Sendable {
    /// The conversion of `Date` as ``DatabaseValueConvertible``: UTC text
    /// (`"yyyy-MM-dd HH:mm:ss.SSS"`), or a number of seconds since 1970.
    case deferredToDate
    /// A number of seconds since 2001-01-01 UTC.
    case timeIntervalSinceReferenceDate
    /// A number of seconds since 1970-01-01 UTC.
    case timeIntervalSince1970
    /// A number of milliseconds since 1970-01-01 UTC.
    case millisecondsSince1970
    /// ISO 8601 text (`2001-09-09T01:46:40Z`).
    case iso8601
    /// Text read by the formatter.
    case formatted(DateFormatter)
    /// The date the closure reads from the database value; nil is a decoding error.
    case custom(@Sendable (DatabaseValue) -> Date?)

    /// The date of a database value that is not NULL; nil when it does not convert.
    func date(from dbValue: DatabaseValue) -> Date? {
        switch self {
        case .deferredToDate:
            return Date.fromDatabaseValue(dbValue)
        case .timeIntervalSinceReferenceDate:
            return Double.fromDatabaseValue(dbValue).map { Date(timeIntervalSinceReferenceDate: $0) }
        case .timeIntervalSince1970:
            return Double.fromDatabaseValue(dbValue).map { Date(timeIntervalSince1970: $0) }
        case .millisecondsSince1970:
            return Double.fromDatabaseValue(dbValue).map { Date(timeIntervalSince1970: $0 / 1000) }
        case .iso8601:
            return String.fromDatabaseValue(dbValue).flatMap { try? Date.ISO8601FormatStyle().parse($0) }
        case .formatted(let formatter):
            return String.fromDatabaseValue(dbValue).flatMap { formatter.date(from: $0) }
        case .custom(let date):
            return date(dbValue)
        }
    }
}

/// How a `Decodable` record reads its `Data` properties; see
/// ``FetchableRecord/databaseDataDecodingStrategy(for:)``.
public enum DatabaseDataDecodingStrategy: Sendable {
    /// The conversion of `Data` as ``DatabaseValueConvertible``: a blob, or the UTF-8
    /// bytes of text.
    case deferredToData
    /// The data the closure reads from the database value; nil is a decoding error.
    case custom(@Sendable (DatabaseValue) -> Data?)

    /// The data of a database value that is not NULL; nil when it does not convert.
    func data(from dbValue: DatabaseValue) -> Data? {
        switch self {
        case .deferredToData: return Data.fromDatabaseValue(dbValue)
        case .custom(let data): return data(dbValue)
        }
    }
}
