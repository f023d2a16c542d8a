import Foundation

/// A format that prints rows as a JSON array of objects, one row per line.
///
/// ```swift
/// // [{"name":"Arthur","score":500},
/// // {"name":"Barbara","score":1000}]
/// try db.dumpRequest(Player.all(), format: .json())
/// ```
///
/// The encoder formats each value. With `.prettyPrinted`, each value is on its own line:
///
/// ```swift
/// let encoder = JSONDumpFormat.defaultEncoder
/// encoder.outputFormatting = .prettyPrinted
/// try db.dumpRequest(Player.all(), format: .json(encoder: encoder))
/// ```
public struct JSONDumpFormat: Sendable {
    /// A new encoder for database values: blobs in base64, infinite reals and NaN as the
    /// strings `"inf"`, `"-inf"` and `"nan"`, and slashes not escaped.
    ///
    /// Each call returns a new encoder, which may be customized.
    public static var defaultEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        encoder.dataEncodingStrategy = .base64
        return encoder
    }

    /// The encoder of each column name and value. With `.prettyPrinted` in its
    /// `outputFormatting`, each value is printed on its own line.
    public var encoder: JSONEncoder

    private var isFirstRow = true

    /// A JSON format.
    ///
    /// - Parameter encoder: The encoder of each column name and value. With
    ///   `.prettyPrinted` in its `outputFormatting`, each value is printed on its own line.
    public init(encoder: JSONEncoder = JSONDumpFormat.defaultEncoder) {
        self.encoder = encoder
    }
}

extension JSONDumpFormat: DumpFormat {
    /// Throws when the encoder fails (a non-conforming real, with an encoder that does
    /// not convert them).
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws {
        let isPretty = encoder.outputFormatting.contains(.prettyPrinted)
        if isFirstRow {
            isFirstRow = false
            stream.write(isPretty ? "[\n" : "[")
        } else {
            stream.write(",\n")
        }
        stream.write(isPretty ? "  {" : "{")
        for (index, (name, value)) in zip(statement.columnNames, statement.dumpedValues).enumerated() {
            if index > 0 { stream.write(",") }
            if isPretty { stream.write("\n    ") }
            stream.write(try json(name))
            stream.write(":")
            stream.write(try json(value))
        }
        stream.write(isPretty ? "\n  }" : "}")
    }

    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        if !isFirstRow {
            if encoder.outputFormatting.contains(.prettyPrinted) { stream.write("\n") }
            stream.writeLine("]")
        } else if statement.columnCount > 0 {
            // A query without rows is an empty array; a statement without columns prints nothing.
            stream.writeLine("[]")
        }
        isFirstRow = true
    }

    private func json(_ value: DumpedValue) throws -> String {
        switch value {
        case .null: return "null"
        case .integer(let integer): return try json(integer)
        case .real(let real): return try json(real)
        case .text(let text): return try json(text)
        case .blob(let data): return try json(data)
        }
    }

    private func json(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

extension DumpFormat where Self == JSONDumpFormat {
    /// A format that prints rows as a JSON array of objects, one row per line.
    ///
    /// ```swift
    /// // [{"name":"Arthur","score":500},
    /// // {"name":"Barbara","score":1000}]
    /// try db.dumpRequest(Player.all(), format: .json())
    /// ```
    ///
    /// - Parameter encoder: The encoder of each column name and value. With
    ///   `.prettyPrinted` in its `outputFormatting`, each value is printed on its own line.
    public static func json(encoder: JSONEncoder = JSONDumpFormat.defaultEncoder) -> Self {
        JSONDumpFormat(encoder: encoder)
    }
}
