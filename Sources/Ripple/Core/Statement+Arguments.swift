extension Statement {
    /// The arguments last bound with `setArguments(_:)`, `setUncheckedArguments(_:)` or
    /// `execute(arguments:)`.
    ///
    /// Setting arguments that do not fit the statement is a programmer error, and stops
    /// the process: call `setArguments(_:)` to get a thrown error instead.
    public var arguments: StatementArguments {
        get { boundArguments }
        set {
            do {
                try setArguments(newValue)
            } catch {
                fatalError("Invalid arguments for `\(sql)`: \(error). Call setArguments(_:), which throws, or setUncheckedArguments(_:).")
            }
        }
    }

    /// Binds `arguments` without checking that they fit the statement: a parameter that
    /// gets no value is bound to NULL, and values left unused are ignored.
    ///
    /// - parameter arguments: Positional and named values.
    public func setUncheckedArguments(_ arguments: StatementArguments) {
        // Each parameter in order, as the checked binding resolves them.
        var position = 0
        let values: [DatabaseValue] = parameterNames.map { name in
            if let name, let value = arguments.namedValues[name] { return value }
            guard position < arguments.positional.count else { return .null }
            defer { position += 1 }
            return arguments.positional[position]?.databaseValue ?? .null
        }
        var start = 0
        do {
            try bind(StatementArguments(values), consumingFrom: &start)
        } catch {
            // Binding values SQLite accepts in type fails only beyond its limits (a string
            // or blob longer than SQLITE_MAX_LENGTH): a programmer error, as in GRDB.
            fatalError("Cannot bind arguments to `\(sql)`: \(error)")
        }
        boundArguments = arguments
    }
}
