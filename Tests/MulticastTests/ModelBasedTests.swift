import MulticastChecks
import Testing

/// Random programs against `MulticastDelegate` and a plain reference model (see `MulticastChecks`).
///
/// By default five seeds of 20,000 operations each; `MULTICAST_FUZZ_SEED=7` (or `7,8,9`) and
/// `MULTICAST_FUZZ_OPS=1000000` run others. A failure prints the seed and the shortest failing program.
@Suite struct ModelBasedTests {
    static let seeds: [UInt64] =
        environment("MULTICAST_FUZZ_SEED").map { $0.split(separator: ",").compactMap { UInt64($0) } } ?? [
            1, 2, 3, 4, 5,
        ]
    static let operations = environment("MULTICAST_FUZZ_OPS").flatMap { Int($0) } ?? 20_000

    @Test(arguments: seeds)
    func randomProgramsAgreeWithTheModel(seed: UInt64) {
        let report = ModelFuzzer.fuzz(seed: seed, operations: Self.operations)
        #expect(report.counterexample == nil, "\(report.counterexample.map { "\($0)" } ?? "")")
        #expect(report.statistics.operations == Self.operations)
        #expect(report.statistics.visits > 0 && report.statistics.turnActions > 0)
        #expect(report.statistics.ownedVisits > 0 && report.statistics.ownerDeathsDuringPasses > 0)
    }

    /// Removed before its turn, as a program: a pass over 0...3 where 0 removes 1 calls 0, 2 and 3.
    @Test func removingTheNextDelegateDuringAPassAgreesWithTheModel() {
        for shape in DelegateShape.allCases {
            var program: [FuzzOp] = []
            for handle in 0..<4 {
                program += [.create(handle: handle, strong: handle % 2 == 0), .add(list: 0, handle: handle)]
            }
            program += [.pass(list: 0, kind: .call, script: 5), .remove(list: 0, handle: 1), .release(handle: 3)]
            program += [.pass(list: 0, kind: .iterate, script: 6), .removeAll(list: 0)]
            #expect(ModelFuzzer.replay(shape: shape, program) == nil)
        }
    }

    /// Owned registrations among weak and strong ones, as a program: replaced, removed, and ended by owners that
    /// die at the top level and during passes, one of which removes its registration in its deinit and one of
    /// which adds one there.
    @Test func ownedRegistrationsAgreeWithTheModel() {
        for shape in DelegateShape.allCases {
            let program: [FuzzOp] = [
                .create(handle: 0, strong: false), .add(list: 0, handle: 0),
                .createOwner(owner: 0, onDeinit: .removeOwned(list: 0)), .addOwned(list: 0, owner: 0),
                .createOwner(owner: 1, onDeinit: .addOwned(list: 0)), .addOwned(list: 0, owner: 1),
                .create(handle: 1, strong: true), .add(list: 0, handle: 1), .replace(list: 0, owner: 0),
                .pass(list: 0, kind: .call, script: 5), .releaseOwner(owner: 1),
                .pass(list: 0, kind: .iterate, script: 6), .addOwned(list: 1, owner: 0),
                .removeOwned(list: 0, owner: 0), .pass(list: 1, kind: .map, script: 7), .releaseOwner(owner: 0),
            ]
            #expect(ModelFuzzer.replay(shape: shape, program) == nil)
        }
    }

    @Test func shrinkingKeepsAPassingProgramWhole() {
        let program = FuzzOp.program(seed: 9, count: 50)
        #expect(ModelFuzzer.shrink(program, shape: .loose) == program)
    }

    /// A program that fails once it has removed everything from list 0 and then added handle 3 to list 1
    /// shrinks to exactly those two operations, wherever they stand among others.
    @Test func shrinkingFindsTheSmallestFailingProgram() {
        let removeAll = FuzzOp.removeAll(list: 0)
        let add = FuzzOp.add(list: 1, handle: 3)
        var program = FuzzOp.program(seed: 11, count: 120).filter { $0 != removeAll && $0 != add }
        program.insert(removeAll, at: 30)
        program.insert(add, at: 90)
        program += FuzzOp.program(seed: 12, count: 20)
        let shrunk = ModelFuzzer.shrink(program) { candidate in
            guard let first = candidate.firstIndex(of: removeAll) else { return nil }
            return candidate[first...].firstIndex(of: add)
        }
        #expect(shrunk == [removeAll, add])
    }
}
