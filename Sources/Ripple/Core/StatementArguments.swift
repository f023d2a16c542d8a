/// The values bound to the parameters of a statement: positional (`?`), named (`:name`,
/// `@name`, `$name`), or both.
///
/// ```swift
/// try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)",
///                arguments: ["Arthur", 1000])
/// try db.execute(sql: "INSERT INTO player (name, score) VALUES (:name, :score)",
///                arguments: ["name": "Arthur", "score": 1000])
/// ```
///
/// Positional values fill the parameters in order; named values fill the named parameters
/// whose name they carry (without its prefix). A named parameter with no named value takes
/// the next positional value. Every parameter must get a value, and every positional value
/// must be used: otherwise the statement throws a ``DatabaseError`` that says which.
public struct StatementArguments: Hashable, Sendable, CustomStringConvertible,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// The positional values, kept as given: they turn into database values only when they
    /// are bound, so that an array literal costs no conversion pass and no second array.
    @usableFromInline
    var positional: [(any DatabaseValueConvertible)?]

    /// The named values, keyed by parameter name without prefix.
    public internal(set) var namedValues: [String: DatabaseValue]

    /// The positional values.
    public var values: [DatabaseValue] {
        positional.map { $0?.databaseValue ?? .null }
    }

    @usableFromInline
    init(positional: [(any DatabaseValueConvertible)?], namedValues: [String: DatabaseValue]) {
        self.positional = positional
        self.namedValues = namedValues
    }

    /// No values.
    public init() {
        self.init(positional: [], namedValues: [:])
    }

    /// Positional values.
    public init<S: Sequence>(_ sequence: S) where S.Element == (any DatabaseValueConvertible)? {
        self.init(positional: Array(sequence), namedValues: [:])
    }

    /// Positional values of one type.
    public init<S: Sequence>(_ sequence: S) where S.Element: DatabaseValueConvertible {
        self.init(positional: sequence.map { $0 }, namedValues: [:])
    }

    /// Named values.
    public init(_ dictionary: [String: (any DatabaseValueConvertible)?]) {
        self.init(positional: [], namedValues: dictionary.mapValues { $0?.databaseValue ?? .null })
    }

    /// Positional values: `[1, "Arthur", nil]`.
    @inlinable
    public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        self.init(positional: elements, namedValues: [:])
    }

    /// Named values: `["name": "Arthur", "score": 1000]`.
    public init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        self.init(
            positional: [],
            namedValues: Dictionary(elements.map { ($0.0, $0.1?.databaseValue ?? .null) }) { _, last in last })
    }

    public static func == (lhs: StatementArguments, rhs: StatementArguments) -> Bool {
        lhs.values == rhs.values && lhs.namedValues == rhs.namedValues
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(values)
        hasher.combine(namedValues)
    }

    /// Whether there is no value at all.
    public var isEmpty: Bool { positional.isEmpty && namedValues.isEmpty }

    /// Appends the values of `other`; its named values replace those of the same name.
    ///
    /// - parameter other: The arguments to append.
    /// - returns: The named values that were replaced, by name.
    @discardableResult
    public mutating func append(contentsOf other: StatementArguments) -> [String: DatabaseValue] {
        positional.append(contentsOf: other.positional)
        var replaced: [String: DatabaseValue] = [:]
        for (name, value) in other.namedValues {
            if let old = namedValues.updateValue(value, forKey: name) { replaced[name] = old }
        }
        return replaced
    }

    /// The concatenation of two sets of arguments.
    public static func + (lhs: StatementArguments, rhs: StatementArguments) -> StatementArguments {
        var result = lhs
        result.append(contentsOf: rhs)
        return result
    }

    /// `[1, "Arthur"]`, `[name: "Arthur"]`, or `[1, name: "Arthur"]`.
    public var description: String {
        let positional = values.map(\.description)
        let named = namedValues.keys.sorted().map { "\($0): \(namedValues[$0]!)" }
        return "[" + (positional + named).joined(separator: ", ") + "]"
    }
}
