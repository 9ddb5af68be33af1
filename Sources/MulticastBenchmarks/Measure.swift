import Foundation
import _BenchmarkSupport

/// Nanoseconds on a monotonic clock.
func now() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds
}

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

/// Stops the run with a message: a benchmark whose delegates did not all run measured nothing.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        FileHandle.standardError.write(Data("MulticastBenchmarks: \(message())\n".utf8))
        exit(1)
    }
}

/// Runs each measurement in `measurements` `samples` times, interleaved (a different contender first in
/// each round), and returns the figures in the same order.
func interleave(samples: Int, _ measurements: [() -> Double]) -> [Figure] {
    var figures = [Figure](repeating: Figure(), count: measurements.count)
    for round in 0..<samples {
        for offset in 0..<measurements.count {
            let index = (round + offset) % measurements.count
            figures[index].samples.append(measurements[index]())
        }
    }
    return figures
}

/// How many repetitions of `body` take about `target` nanoseconds.
func calibrate(target: UInt64, _ body: (Int) -> Void) -> Int {
    var repetitions = 1
    while true {
        let start = now()
        body(repetitions)
        let elapsed = now() - start
        if elapsed >= target / 4 || repetitions >= 1 << 26 {
            return Swift.max(1, Int(Double(repetitions) * Double(target) / Double(Swift.max(elapsed, 1))))
        }
        repetitions *= 4
    }
}

/// Bytes the C heap has handed out and not taken back.
func heapBytesInUse() -> Int {
    Int(benchmark_heap_bytes_in_use())
}

/// Formats nanoseconds for the table.
func format(_ nanoseconds: Double) -> String {
    switch nanoseconds {
    case ..<10: return String(format: "%.2f", nanoseconds)
    case ..<100: return String(format: "%.1f", nanoseconds)
    default: return String(format: "%.0f", nanoseconds)
    }
}

/// Prints a table with a row per contender and a column per size, each cell from `cell(name, size)`.
func printBySize(_ names: [String], _ sizes: [Int], cell: (String, Int) -> String) {
    printTable(["contender"] + sizes.map { "N = \($0)" }, names.map { name in [name] + sizes.map { cell(name, $0) } })
}

/// Prints rows as a Markdown table with aligned columns.
func printTable(_ header: [String], _ rows: [[String]]) {
    let widths = header.indices.map { column in
        ([header[column]] + rows.map { $0[column] }).map(\.count).max()!
    }
    func line(_ cells: [String]) -> String {
        "| "
            + cells.enumerated().map { column, cell in
                column == 0
                    ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: " | ") + " |"
    }
    print(line(header))
    print(
        "|"
            + widths.enumerated().map {
                $0 == 0 ? ":" + String(repeating: "-", count: $1 + 1) : String(repeating: "-", count: $1 + 1) + ":"
            }.joined(separator: "|") + "|")
    for row in rows { print(line(row)) }
}
