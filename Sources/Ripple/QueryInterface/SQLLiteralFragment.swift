/// Raw SQL and the values of its parameters, all positional: the form in which a piece of
/// SQL joins a larger statement, whose other parts bind `?` parameters in order.
struct SQLLiteralFragment: Sendable {
    var sql: String
    var values: [DatabaseValue]

    /// Named parameters (`:name`, `@name`, `$name`) become `?` with their value, so that the
    /// fragment can sit among other fragments. A named parameter without a named value takes
    /// the next positional value, as in a statement; one without any value is left as is,
    /// for SQLite to report.
    init(sql: String, arguments: StatementArguments) {
        let positional = arguments.values
        guard !arguments.namedValues.isEmpty else {
            self.sql = sql
            self.values = positional
            return
        }
        var result = ""
        var values: [DatabaseValue] = []
        var nextPositional = positional.makeIterator()
        var quotes = SQLQuoteTracker()
        var characters = sql[...]
        while let character = characters.popFirst() {
            if quotes.isQuoted(character) {
                result.append(character)
            } else if character == "?" {
                result.append(character)
                if let value = nextPositional.next() { values.append(value) }
            } else if character == ":" || character == "@" || character == "$" {
                let name = characters.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                guard !name.isEmpty else {
                    result.append(character)
                    continue
                }
                characters = characters.dropFirst(name.count)
                if let value = arguments.namedValues[String(name)] ?? nextPositional.next() {
                    result += "?"
                    values.append(value)
                } else {
                    result += String(character) + name
                }
            } else {
                result.append(character)
            }
        }
        self.sql = result
        self.values = values
    }
}

/// Follows string literals and quoted identifiers through SQL, one character at a time, so
/// that parameters are looked for outside of them only.
struct SQLQuoteTracker {
    private var quote: Character?

    /// Whether `character` opens, closes or is inside a string literal or a quoted
    /// identifier.
    mutating func isQuoted(_ character: Character) -> Bool {
        if let open = quote {
            if character == open { quote = nil }
            return true
        }
        if character == "'" || character == "\"" || character == "`" {
            quote = character
            return true
        }
        return false
    }
}
