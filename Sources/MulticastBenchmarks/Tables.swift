// The report as Markdown tables, as the benchmark prints it, and as `--markdown FILE` writes it.

import Foundation

/// The text of the tables printed so far, kept for `--markdown FILE`; nil when no file was asked for. Only the
/// main thread prints the tables.
nonisolated(unsafe) var markdownCopy: String?

/// Prints a line of the tables, and keeps it for `--markdown FILE`.
func emit(_ text: String) {
    print(text)
    markdownCopy?.append(text + "\n")
}

/// Writes the tables printed so far to `path`, as `--markdown` asks.
func writeMarkdown(to path: String) {
    let text = markdownCopy ?? ""
    guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
        FileHandle.standardError.write(Data("MulticastBenchmarks: cannot write \(path)\n".utf8))
        exit(1)
    }
    print("\nWrote \(path)")
}

extension Report {
    func printTables() {
        let machine =
            "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.operatingSystemVersionString)"
        emit(
            "# Multicast benchmarks, \(build) build (\(settings.samples) interleaved samples; median, min in parentheses;"
                + " \(machine))\n"
        )
        if build == "debug" {
            emit(
                """
                Debug figures: Multicast, the contenders and this program are built without optimization, as an \
                app's debug build builds them; Foundation is the system's, optimized as always. Only the call, \
                pair, bulk registration and replace scenarios run; `swift run -c release MulticastBenchmarks` \
                measures them all.

                """
            )
        }
        emit("## call: ns per delegate\n")
        printTable(
            ["contender"] + settings.callSizes.map { "N = \($0)" } + ["no delegates (ns per call)"],
            callContenders.map { type in
                [type.name] + settings.callSizes.map { calls[$0]?[type.name]?.cell ?? "-" }
                    + [empty[type.name]?.cell ?? "-"]
            }
        )
        emit("\n## call: ratio to floor (ii), in-place weak loads (median / median)\n")
        printBySize(callContenders.map { $0.name }, settings.callSizes) { name, size in
            String(format: "%.2fx", median(name, size) / median(WeakFloor.name, size))
        }
        emit("\n## heap allocations per call (valgrind, difference of two call counts)\n")
        printBySize(callContenders.map { $0.name }, settings.callSizes) { name, size in
            allocations[name]?[size].map { String(format: "%.2f", $0) } ?? "-"
        }
        emit("\n## add then remove one delegate while \(settings.pairOthers) others stay: ns per pair\n")
        printTable(
            ["contender", "ns per pair"], pairingContenders.map { [$0.name, pairs[$0.name]?.cell ?? "-"] })
        printRegistrationInBulk()
        guard build == "release" else {
            emit("\n## targets (debug build)\n")
            printTargets()
            return
        }
        emit("\n## async delivery: ns per delegate, from the call until every delegate has run\n")
        printBySize(asyncContenders.map { $0.name }, settings.callSizes) { name, size in
            asyncDelivery[size]?[name]?.cell ?? "-"
        }
        emit("\n## add then remove N distinct delegates: ns per operation\n")
        printBySize(registeringContenders.map { $0.name }, settings.registrationSizes) { name, size in
            registration[size]?[name]?.cell ?? "skipped (quadratic)"
        }
        emit(
            "\n## memory: heap bytes per registered delegate (N = 10,000; the delegates' weak side tables excluded,"
                + " the owned registrations' owners and their side tables included)\n")
        printTable(
            ["contender", "bytes"],
            callContenders.map { [$0.name, memory[$0.name].map { String(format: "%.0f", $0) } ?? "not measured"] })
        emit(
            """

            ## under churn: one thread calls N live weak delegates in a loop while another removes a random \
            registered delegate and adds it back (\(settings.churnRounds) rounds of \
            \(settings.churnNanoseconds / 1_000_000) ms; median)

            """
        )
        printTable(
            ["contender"] + settings.churnSizes.flatMap { ["N = \($0): delegate calls/s", "remove + add pairs/s"] },
            churnContenders.map { contender in
                [contender.name]
                    + settings.churnSizes.flatMap { size -> [String] in
                        let figures = churn[size]?[contender.name]
                        return [
                            figures.map { String(format: "%.3g M", $0.calls.median / 1e6) } ?? "-",
                            contender.churning
                                ? figures.map { String(format: "%.0f k", $0.pairs.median / 1e3) } ?? "-" : "-",
                        ]
                    }
            }
        )
        let churnSeconds = Double(settings.churnMemoryNanoseconds) / 1e9
        emit("\n## memory under churn: heap bytes per live delegate, Multicast (weak), N = 1000\n")
        printTable(
            ["state", "bytes"],
            [
                ["quiet", churnMemory.map { String(format: "%.0f", $0.quiet) } ?? "not measured"],
                [
                    "after \(String(format: "%g", churnSeconds)) s of churn with a permanent caller",
                    churnMemory.map { String(format: "%.0f", $0.churned) } ?? "not measured",
                ],
            ]
        )
        emit("\n## targets\n")
        printTargets()
    }

    /// The bulk registration and replace tables, which `--bulk-only` prints too.
    func printRegistrationInBulk() {
        emit(
            "\n## bulk registration: N fresh delegates added to a new multicast, then removed in a shuffled order:"
                + " ns per operation\n")
        printBySize(bulkContenders.map { $0.name }, settings.bulkSizes) { name, size in
            bulk[size]?[name]?.cell ?? "skipped (quadratic)"
        }
        emit("\n## replace one owner's registration among N owned registrations: ns per replace\n")
        printBySize([MulticastOwned.name], settings.replaceSizes) { _, size in replace[size]?.cell ?? "-" }
    }

    func printTargets() {
        printTable(
            ["figure", "measured", "target", "met"],
            targets.map { [$0.figure, $0.value, $0.target, $0.met.map { $0 ? "yes" : "NO" } ?? "not measured"] })
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
    emit(line(header))
    emit(
        "|"
            + widths.enumerated().map {
                $0 == 0 ? ":" + String(repeating: "-", count: $1 + 1) : String(repeating: "-", count: $1 + 1) + ":"
            }.joined(separator: "|") + "|")
    for row in rows { emit(line(row)) }
}
