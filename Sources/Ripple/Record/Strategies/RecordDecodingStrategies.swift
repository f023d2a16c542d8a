import Foundation

/// The date and data strategies of one record type for the columns of one row, asked once
/// per cursor and column rather than once per record.
final class RecordDecodingStrategies {
    let recordType: any FetchableRecord.Type
    private let columnNames: [String]
    private var dateStrategies: [Int: DatabaseDateDecodingStrategy] = [:]
    private var dataStrategies: [Int: DatabaseDataDecodingStrategy] = [:]

    init(_ recordType: any FetchableRecord.Type, columnNames: [String]) {
        self.recordType = recordType
        self.columnNames = columnNames
    }

    /// The coding key name of each column, for a column strategy other than the default
    /// (nil: keys are column names).
    static func keyNames(_ recordType: any FetchableRecord.Type, columnNames: [String]) -> [String]? {
        let strategy = recordType.databaseColumnDecodingStrategy
        if case .useDefaultKeys = strategy { return nil }
        return columnNames.map { strategy.keyName(forColumn: $0) }
    }

    /// A `Date` or `Data` read with the record's strategy for its column; nil for values of
    /// other types. `dbValue` is not NULL.
    func dateOrData<T>(_ type: T.Type, _ dbValue: DatabaseValue, index: Int, statement: Statement?) throws -> T? {
        try Self.dateOrData(
            T.self, dbValue, column: column(index), index: index, statement: statement,
            dateStrategy: { dateStrategy(index) }, dataStrategy: { dataStrategy(index) })
    }

    /// A `Date` or `Data` read with the given strategies; nil for values of other types.
    /// `dbValue` is not NULL.
    static func dateOrData<T>(
        _ type: T.Type, _ dbValue: DatabaseValue, column: String, index: Int, statement: Statement?,
        dateStrategy: () -> DatabaseDateDecodingStrategy, dataStrategy: () -> DatabaseDataDecodingStrategy
    ) throws -> T? {
        if T.self == Date.self {
            guard let date = dateStrategy().date(from: dbValue) else {
                throw decodingError(dbValue, T.self, column: column, index: index, statement: statement)
            }
            return (date as! T)
        }
        if T.self == Data.self {
            guard let data = dataStrategy().data(from: dbValue) else {
                throw decodingError(dbValue, T.self, column: column, index: index, statement: statement)
            }
            return (data as! T)
        }
        return nil
    }

    private func dateStrategy(_ index: Int) -> DatabaseDateDecodingStrategy {
        if let strategy = dateStrategies[index] { return strategy }
        let strategy = recordType.databaseDateDecodingStrategy(for: column(index))
        dateStrategies[index] = strategy
        return strategy
    }

    private func dataStrategy(_ index: Int) -> DatabaseDataDecodingStrategy {
        if let strategy = dataStrategies[index] { return strategy }
        let strategy = recordType.databaseDataDecodingStrategy(for: column(index))
        dataStrategies[index] = strategy
        return strategy
    }

    private func column(_ index: Int) -> String { index < columnNames.count ? columnNames[index] : "" }
}
