/// The conversions of coding keys to and from snake case, as the JSON coders of Foundation
/// make them: `myURLProperty` is `my_url_property`, and back `myUrlProperty`.
enum SnakeCase {
    /// `myURLProperty` → `my_url_property`: a word starts at an uppercase letter that
    /// follows a letter that is not uppercase, or that ends a run of uppercase letters
    /// before a lowercase one.
    static func snakeCased(_ key: String) -> String {
        let characters = Array(key)
        guard !characters.isEmpty else { return key }
        var result = ""
        result.reserveCapacity(characters.count + 4)
        for (index, character) in characters.enumerated() {
            if index > 0 && character.isUppercase {
                let previous = characters[index - 1]
                let endsAcronym = previous.isUppercase && index + 1 < characters.count && characters[index + 1].isLowercase
                if !previous.isUppercase || endsAcronym { result.append("_") }
            }
            result += character.lowercased()
        }
        return result
    }

    /// `my_url_property` → `myUrlProperty`: leading and trailing underscores stay; a name
    /// with one word stays as it is.
    static func camelCased(_ column: String) -> String {
        guard let first = column.firstIndex(where: { $0 != "_" }),
            let last = column.lastIndex(where: { $0 != "_" })
        else { return column }
        let words = column[first...last].split(separator: "_")
        guard words.count > 1 else { return column }
        var result = String(column[..<first])
        result += words[0].lowercased()
        for word in words.dropFirst() {
            result += word.prefix(1).uppercased() + word.dropFirst().lowercased()
        }
        result += column[column.index(after: last)...]
        return result
    }
}
