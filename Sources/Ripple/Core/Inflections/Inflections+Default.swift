extension Inflections {
    /// The inflections that Ripple uses, English ones unless changed.
    ///
    /// Change them early, before the database is used:
    ///
    /// ```swift
    /// Inflections.default.irregularSuffix("foot", "feet")
    /// ```
    ///
    /// Reading and writing are thread-safe (each access holds a lock), but two threads that
    /// both modify the default inflections may lose one of the changes.
    public static var `default`: Inflections {
        get { defaultStorage.withLock { $0.inflections } }
        set { defaultStorage.withLock { $0 = DefaultState(inflections: newValue) } }
    }

    /// The default inflections, and the words they inflected: an association's key is
    /// inflected each time a request is built, and each inflection runs dozens of regular
    /// expressions. (Bounded: the words are an application's table and association names.)
    private struct DefaultState {
        var inflections: Inflections
        var plurals: [String: String] = [:]
        var singulars: [String: String] = [:]

        static let maximumCachedWords = 1000
    }

    private static let defaultStorage = LockedState(DefaultState(inflections: Inflections.english))

    /// `word`, pluralized by the default inflections.
    static func defaultPlural(of word: String) -> String {
        defaultInflection(of: word, cache: \.plurals) { $0.pluralize($1) }
    }

    /// `word`, singularized by the default inflections.
    static func defaultSingular(of word: String) -> String {
        defaultInflection(of: word, cache: \.singulars) { $0.singularize($1) }
    }

    private static func defaultInflection(
        of word: String, cache: WritableKeyPath<DefaultState, [String: String]>, _ inflect: (Inflections, String) -> String
    ) -> String {
        defaultStorage.withLock { state in
            if let known = state[keyPath: cache][word] { return known }
            let inflected = inflect(state.inflections, word)
            if state[keyPath: cache].count >= DefaultState.maximumCachedWords { state[keyPath: cache].removeAll() }
            state[keyPath: cache][word] = inflected
            return inflected
        }
    }

    /// English inflections: the rules of Ruby on Rails' ActiveSupport, which GRDB follows,
    /// so that names derived from tables are the same.
    static var english: Inflections {
        var inflections = Inflections()
        for (pattern, template) in EnglishRules.plurals {
            inflections.plural(pattern, template)
        }
        for (pattern, template) in EnglishRules.singulars {
            inflections.singular(pattern, template)
        }
        inflections.uncountableWords(EnglishRules.uncountables)
        for (singular, plural) in EnglishRules.irregulars {
            inflections.irregularSuffix(singular, plural)
        }
        return inflections
    }
}

/// The English rules, each a case-insensitive pattern and its template; later rules win.
private enum EnglishRules {
    static let plurals: [(String, String)] = [
        // regular nouns
        ("$", "s"),
        ("s$", "s"),
        // Latin and Greek
        ("^(ax|test)is$", "$1es"),
        ("(octop|vir)us$", "$1i"), ("(octop|vir)i$", "$1i"),
        ("(alias|bias|canvas|focus|gas|lens|status)$", "$1es"),
        ("(bu)s$", "$1ses"),
        ("(buffal|tomat|her)o$", "$1oes"),
        ("([ti])um$", "$1a"), ("([ti])a$", "$1a"),
        ("sis$", "ses"),
        // f and fe to ves
        ("(?:([^f])fe|([lr])f)$", "$1$2ves"),
        ("(hive)$", "$1s"),
        ("([^aeiouy]|qu)y$", "$1ies"),
        ("(x|ch|ss|sh)$", "$1es"),
        ("(matr|vert|ind)(?:ix|ex)$", "$1ices"),
        ("^(m|l)ouse$", "$1ice"), ("^(m|l)ice$", "$1ice"),
        ("^(ox)$", "$1en"), ("^(oxen)$", "$1"),
        ("(quiz)$", "$1zes"),
        ("(canva)s$", "$1ses"),
    ]

    static let singulars: [(String, String)] = [
        // regular nouns
        ("s$", ""),
        ("(ss)$", "$1"),
        ("(n)ews$", "$1ews"),
        ("([ti])a$", "$1um"),
        ("((a)naly|(b)a|(d)iagno|(p)arenthe|(p)rogno|(s)ynop|(t)he)(sis|ses)$", "$1sis"),
        ("(^analy)(sis|ses)$", "$1sis"),
        // ves to f and fe
        ("([^f])ves$", "$1fe"),
        ("(hive)s$", "$1"),
        ("(tive)s$", "$1"),
        ("([lr])ves$", "$1f"),
        ("([^aeiouy]|qu)ies$", "$1y"),
        ("(s)eries$", "$1eries"),
        ("(m)ovies$", "$1ovie"),
        ("(x|ch|ss|sh)es$", "$1"),
        ("^(m|l)ice$", "$1ouse"),
        ("(bus)(es)?$", "$1"),
        ("(o)es$", "$1"),
        ("(shoe)s$", "$1"),
        ("(cris|test)(is|es)$", "$1is"),
        ("^(a)x[ie]s$", "$1xis"),
        ("(octop|vir)(us|i)$", "$1us"),
        ("(alias|bias|canvas|focus|gas|lens|status)(es)?$", "$1"),
        ("^(ox)en$", "$1"),
        ("(vert|ind)ices$", "$1ex"),
        ("(matr)ices$", "$1ix"),
        ("(quiz)zes$", "$1"),
        ("(database)s$", "$1"),
    ]

    static let uncountables = [
        "advice", "corps", "dice", "equipment", "fish", "information", "jeans",
        "kudos", "money", "offspring", "police", "rice", "sheep", "species",
    ]

    /// Singular and plural suffixes.
    static let irregulars = [
        ("child", "children"), ("foot", "feet"), ("leaf", "leaves"), ("man", "men"),
        ("move", "moves"), ("person", "people"), ("sex", "sexes"), ("specimen", "specimens"),
        ("zombie", "zombies"),
    ]
}
