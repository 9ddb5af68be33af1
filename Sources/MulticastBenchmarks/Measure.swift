import Foundation
import _BenchmarkSupport

/// Nanoseconds on a monotonic clock.
func now() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds
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

/// Whether this platform's C heap reports the bytes in use (glibc does).
let heapIsMeasured = heapBytesInUse() > 0

/// Formats nanoseconds for the table.
func format(_ nanoseconds: Double) -> String {
    switch nanoseconds {
    case ..<10: return String(format: "%.2f", nanoseconds)
    case ..<100: return String(format: "%.1f", nanoseconds)
    default: return String(format: "%.0f", nanoseconds)
    }
}
