/// A position in a row: its `startIndex` is the first column, its `endIndex` is past the
/// last one.
public struct RowIndex: Comparable, Strideable, Hashable, Sendable {
    /// The column position, from 0.
    let index: Int

    init(_ index: Int) {
        self.index = index
    }

    /// Whether `lhs` comes before `rhs`.
    ///
    /// - parameter lhs: A row index.
    /// - parameter rhs: Another row index.
    public static func < (lhs: RowIndex, rhs: RowIndex) -> Bool {
        lhs.index < rhs.index
    }

    /// The number of columns from `self` to `other`.
    ///
    /// - parameter other: Another row index.
    public func distance(to other: RowIndex) -> Int {
        other.index - index
    }

    /// The index `n` columns after `self` (before it when `n` is negative).
    ///
    /// - parameter n: A number of columns.
    public func advanced(by n: Int) -> RowIndex {
        RowIndex(index + n)
    }
}

// Rows are collections of `(columnName, value)` pairs, as in GRDB: `row.first`,
// `row.firstIndex(where:)`, `row[row.startIndex]`.
extension Row: RandomAccessCollection {
    /// The position of a `(columnName, value)` pair.
    public typealias Index = RowIndex

    /// The position of the first column.
    public var startIndex: RowIndex { RowIndex(0) }

    /// The position past the last column.
    public var endIndex: RowIndex { RowIndex(count) }

    /// The `(columnName, value)` pair at `position`.
    ///
    /// - parameter position: A valid index of the row.
    public subscript(position: RowIndex) -> (String, DatabaseValue) {
        Row.checkIndex(position.index, count: count)
        return (columnNames[position.index], databaseValues[position.index])
    }
}

extension Row {
    /// The first non-NULL value of `columns` that converts to `T`, in order; nil when
    /// there is none.
    ///
    /// ```swift
    /// let name: String? = row.coalesce(["nickname", "name"])
    /// ```
    ///
    /// - parameter columns: Column names.
    public func coalesce<T: DatabaseValueConvertible>(_ columns: some Collection<String>) -> T? {
        for column in columns {
            if let value = self[column] as T? { return value }
        }
        return nil
    }

    /// The first non-NULL value of `columns` that converts to `T`, in order; nil when
    /// there is none.
    ///
    /// - parameter columns: Columns.
    public func coalesce<T: DatabaseValueConvertible>(_ columns: some Collection<any ColumnExpression>) -> T? {
        coalesce(columns.lazy.map(\.name))
    }
}

extension Row: CustomDebugStringConvertible {
    /// The row, its unadapted row when an adapter changed it, its scopes and its
    /// prefetched rows, one per line and nested: `[id:1]` for a plain row.
    public var debugDescription: String {
        debugDescription(level: 0)
    }

    private func debugDescription(level: Int) -> String {
        let unadapted = self.unadapted
        if level == 0 && self == unadapted && prefetchedRowsStorage.isEmpty { return description }
        let indentation = String(repeating: "  ", count: level + 1)
        var lines = [level == 0 ? "▿ " + description : description]
        if level == 0 && self != unadapted {
            lines.append(indentation + "unadapted: " + unadapted.description)
        }
        for (name, row) in scopes {
            lines.append(indentation + "- " + name + ": " + row.debugDescription(level: level + 1))
        }
        for key in prefetchedRowsStorage.keys.sorted() {
            let count = prefetchedRowsStorage[key]?.count ?? 0
            lines.append(indentation + "+ " + key + ": \(count) " + (count > 1 ? "rows" : "row"))
        }
        return lines.joined(separator: "\n")
    }
}
