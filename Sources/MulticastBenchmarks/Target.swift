import Foundation

/// A figure the benchmark is held to: what it measured, the limit, and whether the figure is within it.
struct Target {
    /// What the figure is, as the table names it.
    var figure: String
    /// The figure as the table shows it, or why there is none.
    var value: String
    /// The limit, as the table shows it.
    var target: String
    /// Whether the figure is within the limit; nil when it was not measured.
    var met: Bool?

    /// A ratio that must be at most `limit`, shown with `digits` decimals.
    static func ratio(_ figure: String, _ value: Double, atMost limit: Double, digits: Int = 2) -> Target {
        ratio(figure, value, digits: digits, target: "<= \(limit)x", met: value <= limit)
    }

    /// A ratio that must be at least `limit`, shown with `digits` decimals.
    static func ratio(_ figure: String, _ value: Double, atLeast limit: Double, digits: Int = 2) -> Target {
        ratio(figure, value, digits: digits, target: ">= \(limit)x", met: value >= limit)
    }

    private static func ratio(_ figure: String, _ value: Double, digits: Int, target: String, met: Bool) -> Target {
        let text = value.isNaN ? "not measured" : String(format: "%.\(digits)fx", value)
        return Target(figure: figure, value: text, target: target, met: value.isNaN ? nil : met)
    }
}
