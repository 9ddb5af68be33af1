// The report as JSON, the file `--json` writes.

import Foundation

extension Report {
    func json() throws -> Data {
        func figures(_ table: [Int: [String: Figure]]) -> [String: [String: [String: Double]]] {
            Dictionary(
                uniqueKeysWithValues: table.map { size, byName in
                    (String(size), byName.mapValues { ["median": $0.median, "min": $0.minimum] })
                })
        }
        let object: [String: Any] = [
            "build": build,
            "samples": settings.samples,
            "callNanosecondsPerDelegate": figures(calls),
            "emptyCallNanoseconds": empty.mapValues { ["median": $0.median, "min": $0.minimum] },
            "addRemoveNanosecondsPerOperation": figures(registration),
            "pairNanoseconds": [
                String(settings.pairOthers): pairs.mapValues { ["median": $0.median, "min": $0.minimum] }
            ],
            "bulkNanosecondsPerOperation": figures(bulk),
            "replaceNanoseconds": Dictionary(
                uniqueKeysWithValues: replace.map { size, figure in
                    (String(size), ["median": figure.median, "min": figure.minimum])
                }),
            "asyncDeliveryNanosecondsPerDelegate": figures(asyncDelivery),
            "bytesPerDelegate": memory,
            "churn": Dictionary(
                uniqueKeysWithValues: churn.map { size, byName in
                    (
                        String(size),
                        byName.mapValues {
                            $0.pairs.samples.isEmpty
                                ? ["callsPerSecond": $0.calls.median]
                                : ["callsPerSecond": $0.calls.median, "pairsPerSecond": $0.pairs.median]
                        }
                    )
                }),
            "churnBytesPerLiveDelegate": churnMemory.map { ["quiet": $0.quiet, "churned": $0.churned] } ?? [:],
            "allocationsPerCall": allocations.mapValues {
                Dictionary(uniqueKeysWithValues: $0.map { (String($0.key), $0.value) })
            },
            "targets": targets.map {
                [
                    "figure": $0.figure, "measured": $0.value, "target": $0.target,
                    "met": $0.met.map { $0 as Any } ?? NSNull(),
                ]
            },
        ]
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    }
}
