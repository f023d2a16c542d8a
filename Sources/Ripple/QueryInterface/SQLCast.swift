// `CAST(expression AS type)`.

extension Database {
    /// A storage class of SQLite, the type of a `CAST` expression.
    public struct StorageClass: RawRepresentable, Hashable, Sendable {
        /// The SQL of the storage class: `"INTEGER"`, `"REAL"`...
        public let rawValue: String

        /// A storage class named by its SQL.
        ///
        /// - Parameter rawValue: The SQL of the storage class.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// `INTEGER`.
        public static let integer = StorageClass(rawValue: "INTEGER")
        /// `REAL`.
        public static let real = StorageClass(rawValue: "REAL")
        /// `TEXT`.
        public static let text = StorageClass(rawValue: "TEXT")
        /// `BLOB`.
        public static let blob = StorageClass(rawValue: "BLOB")
    }
}

/// `CAST(expression AS type)`: `cast(Column("value"), as: .real)`.
///
/// - Parameters:
///   - expression: The expression to convert.
///   - storageClass: The storage class of the result.
public func cast(_ expression: some SQLSpecificExpressible, as storageClass: Database.StorageClass) -> SQLExpression {
    SQLExpression.cast(expression.sqlExpression, as: storageClass)
}

extension SQLExpression {
    static func cast(_ expression: SQLExpression, as storageClass: Database.StorageClass) -> SQLExpression {
        SQLExpression(.function("CAST", [.infix("AS", expression.node, .atom(storageClass.rawValue))]))
    }
}
