/// Figures of one contender in one scenario: nanoseconds per operation, over several samples.
struct Figure: Codable {
    var samples: [Double] = []

    var median: Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    var minimum: Double { samples.min() ?? .nan }

    /// The median, then the minimum in parentheses, as the tables show a figure.
    var cell: String { "\(format(median)) (\(format(minimum)))" }
}
