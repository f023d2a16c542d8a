import Foundation

// The string functions of Swift and Foundation that every connection has, as in GRDB:
// `Column("name").capitalized` is `swiftCapitalizedString("name")`. Each one returns NULL
// for a value that is not a string.
extension DatabaseFunction {
    /// `String.capitalized`: `swiftCapitalizedString(x)`.
    public static let capitalize = stringFunction("swiftCapitalizedString") { $0.capitalized }
    /// `String.lowercased()`: `swiftLowercaseString(x)`.
    public static let lowercase = stringFunction("swiftLowercaseString") { $0.lowercased() }
    /// `String.uppercased()`: `swiftUppercaseString(x)`.
    public static let uppercase = stringFunction("swiftUppercaseString") { $0.uppercased() }
    /// `String.localizedCapitalized`: `swiftLocalizedCapitalizedString(x)`.
    public static let localizedCapitalize = stringFunction("swiftLocalizedCapitalizedString") { $0.localizedCapitalized }
    /// `String.localizedLowercase`: `swiftLocalizedLowercaseString(x)`.
    public static let localizedLowercase = stringFunction("swiftLocalizedLowercaseString") { $0.localizedLowercase }
    /// `String.localizedUppercase`: `swiftLocalizedUppercaseString(x)`.
    public static let localizedUppercase = stringFunction("swiftLocalizedUppercaseString") { $0.localizedUppercase }

    /// The functions added to every connection.
    static let builtIn: [DatabaseFunction] = [
        .capitalize, .lowercase, .uppercase, .localizedCapitalize, .localizedLowercase, .localizedUppercase,
    ]

    private static func stringFunction(_ name: String, _ transform: @escaping @Sendable (String) -> String) -> DatabaseFunction {
        DatabaseFunction(name, argumentCount: 1, pure: true) { values in
            String.fromDatabaseValue(values[0]).map(transform)
        }
    }
}

extension SQLSpecificExpressible {
    /// The string with its words capitalized, by Swift: `swiftCapitalizedString("name")`.
    public var capitalized: SQLExpression { DatabaseFunction.capitalize(self) }
    /// The string in lower case, by Swift (all of Unicode, where SQLite's `LOWER` knows
    /// ASCII only): `swiftLowercaseString("name")`.
    public var lowercased: SQLExpression { DatabaseFunction.lowercase(self) }
    /// The string in upper case, by Swift: `swiftUppercaseString("name")`.
    public var uppercased: SQLExpression { DatabaseFunction.uppercase(self) }
    /// The string capitalized in the current locale: `swiftLocalizedCapitalizedString("name")`.
    public var localizedCapitalized: SQLExpression { DatabaseFunction.localizedCapitalize(self) }
    /// The string in lower case in the current locale: `swiftLocalizedLowercaseString("name")`.
    public var localizedLowercased: SQLExpression { DatabaseFunction.localizedLowercase(self) }
    /// The string in upper case in the current locale: `swiftLocalizedUppercaseString("name")`.
    public var localizedUppercased: SQLExpression { DatabaseFunction.localizedUppercase(self) }
}
