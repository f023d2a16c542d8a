import Foundation

extension Inflections {
    /// Where the last word of a string starts: after the last space or underscore, or at the
    /// last capital of a camel-case string (`"bestPlayerScore"` → `"Score"`).
    static func startIndexOfLastWord(_ string: String) -> String.Index {
        let range = NSRange(string.startIndex..., in: string)
        func start(of regex: NSRegularExpression, skippingFirst: Bool) -> String.Index? {
            guard let match = regex.firstMatch(in: string, range: range),
                let found = Range(match.range, in: string)
            else { return nil }
            return skippingFirst ? string.index(after: found.lowerBound) : found.lowerBound
        }
        let candidates = [
            start(of: LastWord.afterWordBoundary, skippingFirst: false),
            start(of: LastWord.afterUnderscore, skippingFirst: true),
            start(of: LastWord.afterCaseChange, skippingFirst: true),
        ]
        return candidates.compactMap { $0 }.max() ?? string.startIndex
    }

    /// Where the trailing digits of a string start (its end when it has none).
    static func endIndexOfDigitlessRadical(_ string: String) -> String.Index {
        var end = string.endIndex
        while end > string.startIndex {
            let previous = string.index(before: end)
            guard ("0"..."9").contains(string[previous]) else { break }
            end = previous
        }
        return end
    }

    /// The expressions that find the last word of a string.
    private enum LastWord {
        static let afterWordBoundary = pattern(#"\b\w+$"#)
        /// Matches from the underscore.
        static let afterUnderscore = pattern(#"_[^_]+$"#)
        /// Matches from the character before the capitals.
        static let afterCaseChange = pattern(#"[^A-Z][A-Z]+[a-z1-9]+$"#)

        private static func pattern(_ pattern: String) -> NSRegularExpression {
            // The patterns are constant and valid.
            try! NSRegularExpression(pattern: pattern)
        }
    }
}

extension String {
    /// The plural form of the string, by ``Inflections/default``: `"player"` → `"players"`.
    var pluralized: String {
        Inflections.defaultPlural(of: self)
    }

    /// The singular form of the string, by ``Inflections/default``: `"players"` → `"player"`.
    var singularized: String {
        Inflections.defaultSingular(of: self)
    }

    /// The string without its trailing digits: `"player12"` → `"player"`.
    var digitlessRadical: String {
        String(self[..<Inflections.endIndexOfDigitlessRadical(self)])
    }
}
