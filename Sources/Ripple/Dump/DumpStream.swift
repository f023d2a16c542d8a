/// The text output of the dumping methods: the stream they were given, or the standard
/// output.
///
/// A format asks for a blank line between two groups of lines with ``margin()``; the
/// line only appears if more text follows.
public struct DumpStream {
    private var base: any TextOutputStream
    private var needsMargin = false

    init(_ base: (any TextOutputStream)?) {
        self.base = base ?? StandardOutputStream()
    }

    /// Makes the next non-empty text start on a new blank line, unless it starts with a
    /// newline itself.
    ///
    /// ```swift
    /// stream.write("a\n")
    /// stream.margin()
    /// stream.write("b\n")   // a, a blank line, b
    /// ```
    public mutating func margin() {
        needsMargin = true
    }
}

extension DumpStream: TextOutputStream {
    public mutating func write(_ string: String) {
        if needsMargin && !string.isEmpty {
            needsMargin = false
            if !string.hasPrefix("\n") { base.write("\n") }
        }
        base.write(string)
    }

    /// Writes `line` and a newline.
    mutating func writeLine(_ line: String) {
        write(line)
        write("\n")
    }
}

/// The standard output, where the dumps print when given no stream.
private struct StandardOutputStream: TextOutputStream {
    func write(_ string: String) {
        print(string, terminator: "")
    }
}
