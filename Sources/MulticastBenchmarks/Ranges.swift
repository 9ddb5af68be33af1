// `MulticastBenchmarks --ranges FILE...`: what several runs' JSON files (`--json`) say together. One run's
// figure is noise on a shared machine; a figure worth quoting is the range over runs taken apart in time, and
// prose claims no more than its worst end.

import Foundation

extension MulticastBenchmarks {
    /// Prints, for each target and each headline ratio, the lowest and highest value over the runs, and how
    /// many runs met the target.
    static func printRanges(_ paths: [String]) throws {
        let runs = try paths.map { path -> [String: Any] in
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard let run = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                usage("\(path) is not a run's JSON")
            }
            return run
        }
        let builds = Set(runs.compactMap { $0["build"] as? String })
        guard builds.count == 1, let build = builds.first else {
            usage("--ranges takes the JSON of runs of one build; these are of \(builds.sorted())")
        }
        emit("# Ranges over \(runs.count) runs, \(build) build\n")
        emit("## headline ratios: NotificationCenter's ns per delegate / Multicast (weak)'s, same run\n")
        let sizes = Set(runs.flatMap { ($0["callNanosecondsPerDelegate"] as? [String: Any] ?? [:]).keys })
            .compactMap(Int.init).sorted()
        var rows: [[String]] = []
        for center in [NotificationCenterWeak.name, NotificationCenterWeakNoPayload.name] {
            for size in sizes {
                let ratios = runs.compactMap { run -> Double? in
                    guard let center = callMedian(run, center, size),
                        let weak = callMedian(run, MulticastWeak.name, size)
                    else { return nil }
                    return center / weak
                }
                rows.append([
                    "\(center) / \(MulticastWeak.name), N = \(size)", range(ratios, digits: 1), "\(ratios.count)",
                ])
            }
        }
        printTable(["ratio", "lowest – highest", "runs"], rows)
        emit("\n## targets\n")
        var figures: [String] = []
        var measured: [String: [Double]] = [:]
        var limits: [String: String] = [:]
        var met: [String: Int] = [:]
        for run in runs {
            for target in run["targets"] as? [[String: Any]] ?? [] {
                guard let figure = target["figure"] as? String else { continue }
                if measured[figure] == nil { figures.append(figure) }
                let text = (target["measured"] as? String ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "x"))
                measured[figure, default: []] += Double(text).map { [$0] } ?? []
                limits[figure] = target["target"] as? String
                if target["met"] as? Bool == true { met[figure, default: 0] += 1 }
            }
        }
        printTable(
            ["figure", "lowest – highest", "target", "runs that met it"],
            figures.map { figure in
                [
                    figure, range(measured[figure] ?? [], digits: 2), limits[figure] ?? "",
                    "\(met[figure] ?? 0) of \(runs.count)",
                ]
            })
    }

    /// The median ns per delegate of `name` at `size` in a run's JSON.
    static func callMedian(_ run: [String: Any], _ name: String, _ size: Int) -> Double? {
        let calls = run["callNanosecondsPerDelegate"] as? [String: [String: [String: Double]]]
        return calls?[String(size)]?[name]?["median"]
    }

    /// "lowest – highest", or "-" when there is no value.
    static func range(_ values: [Double], digits: Int) -> String {
        guard let lowest = values.min(), let highest = values.max() else { return "-" }
        return String(format: "%.\(digits)f – %.\(digits)f", lowest, highest)
    }
}
