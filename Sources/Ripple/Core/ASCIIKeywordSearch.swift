extension String {
    /// Whether the text contains `keyword` (lowercase ASCII letters, digits, spaces),
    /// whatever the case of the text's ASCII letters: how a statement or a schema object
    /// mentions an SQL keyword, which is always ASCII.
    ///
    /// A byte search of the UTF-8 text: Foundation's case-insensitive `range(of:options:)`
    /// costs about a microsecond for each new statement (W6one).
    func mentionsASCIIKeyword(_ keyword: StaticString) -> Bool {
        firstASCIIKeyword(keyword, anchored: false)
    }

    /// Whether the text starts with `keyword`, whatever the case of its ASCII letters.
    func startsWithASCIIKeyword(_ keyword: StaticString) -> Bool {
        firstASCIIKeyword(keyword, anchored: true)
    }

    private func firstASCIIKeyword(_ keyword: StaticString, anchored: Bool) -> Bool {
        keyword.withUTF8Buffer { needle in
            assert(needle.allSatisfy { $0 < 0x80 && !(0x41...0x5A).contains($0) }, "the keyword must be lowercase ASCII")
            var text = self
            return text.withUTF8 { haystack in
                guard needle.count <= haystack.count else { return false }
                let lastStart = anchored ? 0 : haystack.count - needle.count
                var start = 0
                while start <= lastStart {
                    var index = 0
                    while index < needle.count, Self.asciiLowercased(haystack[start + index]) == needle[index] {
                        index += 1
                    }
                    if index == needle.count { return true }
                    start += 1
                }
                return false
            }
        }
    }

    @inline(__always)
    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }
}
