import Foundation

/// The values of each measure over the rounds, printed as min / median / max.
struct Ranges {
    struct Row {
        var measure: String
        var unit: String
        var goal: String
        var values: [Double] = []
    }

    private(set) var rows: [Row] = []

    mutating func add(_ measure: String, _ value: Double, unit: String, goal: String = "") {
        if let index = rows.firstIndex(where: { $0.measure == measure }) {
            rows[index].values.append(value)
        } else {
            rows.append(Row(measure: measure, unit: unit, goal: goal, values: [value]))
        }
    }

    /// A row of the ratios of two rows' values, round by round.
    mutating func addRatio(_ measure: String, of numerator: String, over denominator: String, goal: String) {
        guard let top = rows.first(where: { $0.measure == numerator }), let bottom = rows.first(where: { $0.measure == denominator }) else { return }
        for (above, below) in zip(top.values, bottom.values) where below > 0 {
            add(measure, above / below, unit: "ratio", goal: goal)
        }
    }

    /// A Markdown table: one row per measure, with its rounds' min, median and max.
    func table() -> String {
        var lines = ["| measure | unit | min | median | max | rounds | goal |", "|---|---|--:|--:|--:|--:|---|"]
        for row in rows {
            let sorted = row.values.sorted()
            let median =
                sorted.count % 2 == 1
                ? sorted[sorted.count / 2]
                : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
            let cells = [sorted.first ?? 0, median, sorted.last ?? 0].map(Self.format)
            lines.append("| \(row.measure) | \(row.unit) | \(cells.joined(separator: " | ")) | \(sorted.count) | \(row.goal) |")
        }
        return lines.joined(separator: "\n")
    }

    private static func format(_ value: Double) -> String {
        let digits = abs(value) >= 100 ? 0 : (abs(value) >= 10 ? 1 : (abs(value) >= 1 ? 2 : 3))
        return String(format: "%.\(digits)f", value)
    }
}
