import Foundation

/// Rules that turn English words into their plural or singular forms.
///
/// GRDB apps configure ``Inflections/default`` to name what Ripple derives from table names
/// (for example the plural table `teams` that `t.belongsTo("team")` may refer to):
///
/// ```swift
/// Inflections.default.irregularSuffix("foot", "feet")
/// Inflections.default.uncountableWords(["metadata"])
/// ```
///
/// Rules apply to the last word of a string (after a space, an underscore, or in camel case
/// at the last capital), leaving trailing digits alone: `"bestPlayer2"` pluralizes to
/// `"bestPlayers2"`. The most recently added rule that matches wins.
public struct Inflections: Sendable {
    /// A regular expression and its replacement template (`$1` refers to a capture group).
    struct Rule: Sendable {
        var regex: NSRegularExpression
        var template: String
    }

    /// The plural rules, oldest first (they are tried newest first).
    private var pluralRules: [Rule] = []
    /// The singular rules, oldest first (they are tried newest first).
    private var singularRules: [Rule] = []
    /// The uncountable words, each with the expression that finds it at the end of a word.
    private var uncountableMatchers: [String: NSRegularExpression] = [:]

    /// The uncountable words.
    var uncountables: Set<String> { Set(uncountableMatchers.keys) }

    /// Creates inflections without any rule: they return strings unchanged.
    public init() {}

    /// Appends a pluralization rule, which wins over the rules added before it.
    ///
    /// ```swift
    /// var inflections = Inflections()
    /// inflections.plural("$", "s")
    /// inflections.pluralize("player") // "players"
    /// ```
    ///
    /// An invalid pattern is a programmer error: the call stops the program.
    ///
    /// - Parameters:
    ///   - pattern: A regular expression pattern (`NSRegularExpression` syntax).
    ///   - options: The options of the regular expression (case-insensitive by default).
    ///   - template: The replacement template, where `$1` is the first capture group.
    public mutating func plural(
        _ pattern: String,
        options: NSRegularExpression.Options = [.caseInsensitive],
        _ template: String
    ) {
        pluralRules.append(Self.rule(pattern, options: options, template, caller: "plural"))
    }

    /// Appends a singularization rule, which wins over the rules added before it.
    ///
    /// ```swift
    /// var inflections = Inflections()
    /// inflections.singular("s$", "")
    /// inflections.singularize("players") // "player"
    /// ```
    ///
    /// An invalid pattern is a programmer error: the call stops the program.
    ///
    /// - Parameters:
    ///   - pattern: A regular expression pattern (`NSRegularExpression` syntax).
    ///   - options: The options of the regular expression (case-insensitive by default).
    ///   - template: The replacement template, where `$1` is the first capture group.
    public mutating func singular(
        _ pattern: String,
        options: NSRegularExpression.Options = [.caseInsensitive],
        _ template: String
    ) {
        singularRules.append(Self.rule(pattern, options: options, template, caller: "singular"))
    }

    /// Makes words uncountable: their plural and singular forms are the word itself.
    ///
    /// ```swift
    /// var inflections = Inflections()
    /// inflections.plural("$", "s")
    /// inflections.uncountableWords(["foo"])
    /// inflections.pluralize("foo") // "foo"
    /// inflections.pluralize("bar") // "bars"
    /// ```
    ///
    /// A word is uncountable alone or at the end of a longer word after a word boundary
    /// (`"funky jeans"` when `jeans` is uncountable), whatever its case.
    ///
    /// - Parameter words: The uncountable words.
    public mutating func uncountableWords(_ words: [String]) {
        for word in words {
            let pattern = "\\b" + NSRegularExpression.escapedPattern(for: word) + "\\Z"
            uncountableMatchers[word] = Self.regex(pattern, options: [.caseInsensitive], caller: "uncountableWords")
        }
    }

    /// Adds an irregular pair of singular and plural suffixes.
    ///
    /// ```swift
    /// var inflections = Inflections()
    /// inflections.plural("$", "s")
    /// inflections.irregularSuffix("man", "men")
    /// inflections.pluralize("man")     // "men"
    /// inflections.singularize("women") // "woman"
    /// ```
    ///
    /// The case of the first letter of the inflected word is kept.
    ///
    /// - Parameters:
    ///   - singular: The singular form (not empty).
    ///   - plural: The plural form (not empty).
    public mutating func irregularSuffix(_ singular: String, _ plural: String) {
        guard let singularHead = singular.first, let pluralHead = plural.first else {
            fatalError("Inflections.irregularSuffix: the singular and plural forms must not be empty")
        }
        let singularTail = String(singular.dropFirst())
        let pluralTail = String(plural.dropFirst())
        if singularHead.uppercased() == pluralHead.uppercased() {
            // Same first letter: capture it, so that its case is kept.
            for (head, tail) in [(singularHead, singularTail), (pluralHead, pluralTail)] {
                self.plural("(\(head))\(tail)$", "$1\(pluralTail)")
                self.singular("(\(head))\(tail)$", "$1\(singularTail)")
            }
        } else {
            // Different first letters (person, people): one rule per case of the first letter,
            // the rest of the word matched case-insensitively.
            for (head, tail) in [(singularHead, singularTail), (pluralHead, pluralTail)] {
                for upper in [true, false] {
                    let first = { (c: Character) in upper ? c.uppercased() : c.lowercased() }
                    let pattern = "\(first(head))(?i)\(tail)$"
                    self.plural(pattern, options: [], first(pluralHead) + pluralTail)
                    self.singular(pattern, options: [], first(singularHead) + singularTail)
                }
            }
        }
    }

    /// Returns the plural form of a string.
    ///
    /// ```swift
    /// Inflections.default.pluralize("player") // "players"
    /// ```
    ///
    /// - Parameter string: A string whose last word is singular.
    public func pluralize(_ string: String) -> String {
        inflect(string, with: pluralRules)
    }

    /// Returns the singular form of a string.
    ///
    /// ```swift
    /// Inflections.default.singularize("players") // "player"
    /// ```
    ///
    /// - Parameter string: A string whose last word is plural.
    public func singularize(_ string: String) -> String {
        inflect(string, with: singularRules)
    }

    // MARK: - Applying the rules

    private func inflect(_ string: String, with rules: [Rule]) -> String {
        let wordStart = Self.startIndexOfLastWord(string)
        let wordEnd = Self.endIndexOfDigitlessRadical(string)
        guard wordStart < wordEnd else { return string }  // no letters to inflect
        let word = String(string[wordStart..<wordEnd])
        if isUncountable(word) { return string }
        return string[..<wordStart] + Self.apply(rules, to: word) + string[wordEnd...]
    }

    private func isUncountable(_ word: String) -> Bool {
        let range = NSRange(word.startIndex..., in: word)
        return uncountableMatchers.values.contains { $0.firstMatch(in: word, range: range) != nil }
    }

    /// The word inflected by the newest rule that matches it, or the word itself.
    private static func apply(_ rules: [Rule], to word: String) -> String {
        let range = NSRange(word.startIndex..., in: word)
        for rule in rules.reversed() where rule.regex.firstMatch(in: word, range: range) != nil {
            return rule.regex.stringByReplacingMatches(in: word, range: range, withTemplate: rule.template)
        }
        return word
    }

    private static func rule(
        _ pattern: String,
        options: NSRegularExpression.Options,
        _ template: String,
        caller: String
    )
        -> Rule
    {
        Rule(regex: regex(pattern, options: options, caller: caller), template: template)
    }

    private static func regex(_ pattern: String, options: NSRegularExpression.Options, caller: String) -> NSRegularExpression {
        do {
            return try NSRegularExpression(pattern: pattern, options: options)
        } catch {
            fatalError("Inflections.\(caller): invalid regular expression \(pattern): \(error). Fix the pattern.")
        }
    }
}
