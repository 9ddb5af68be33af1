/// One step of a random program run against a multicast and the reference model.
///
/// Top-level programs use all cases but `removeSelf`, `releaseSelf` and `check`, which only a delegate's turn
/// in a pass performs. `description` prints the case as Swift, so a failing program can be pasted into a test.
package enum FuzzOp: Sendable, Hashable, CustomStringConvertible {
    /// Puts a new delegate in `handle`, releasing the one there; `strong` delegates are only ever added strongly.
    case create(handle: Int, strong: Bool)
    /// Adds the delegate in `handle` to `list`, with its own retention.
    case add(list: Int, handle: Int)
    /// Adds the delegate in `handle` to `list` again, with its own retention, if the model says it is registered
    /// there: nothing changes. (With the other retention, the add would stop the program.)
    case reAdd(list: Int, handle: Int)
    case remove(list: Int, handle: Int)
    case removeAll(list: Int)
    /// Drops the harness's reference to the delegate in `handle`.
    case release(handle: Int)
    /// A pass over `list`; `script` seeds what each delegate does on its turn.
    case pass(list: Int, kind: PassKind, script: UInt64)
    /// On a delegate's turn: removes that delegate from `list`.
    case removeSelf(list: Int)
    /// On a delegate's turn: drops the harness's reference to that delegate.
    case releaseSelf
    /// On a delegate's turn: compares `count`, `isEmpty` and `contains` with the model.
    case check

    package var description: String {
        switch self {
        case .create(let handle, let strong): ".create(handle: \(handle), strong: \(strong))"
        case .add(let list, let handle): ".add(list: \(list), handle: \(handle))"
        case .reAdd(let list, let handle): ".reAdd(list: \(list), handle: \(handle))"
        case .remove(let list, let handle): ".remove(list: \(list), handle: \(handle))"
        case .removeAll(let list): ".removeAll(list: \(list))"
        case .release(let handle): ".release(handle: \(handle))"
        case .pass(let list, let kind, let script): ".pass(list: \(list), kind: .\(kind), script: \(script))"
        case .removeSelf(let list): ".removeSelf(list: \(list))"
        case .releaseSelf: ".releaseSelf"
        case .check: ".check"
        }
    }
}

/// The ways to walk over a multicast's delegates.
package enum PassKind: Int, Sendable, Hashable, CaseIterable {
    /// `call`, to the end.
    case call
    /// `for-in`; may `break` early.
    case iterate
    /// `map`; its result must list the delegates it visited.
    case map
    /// `first(where:)`; stops at the first `true`.
    case first
    /// `contains(where:)`; stops at the first `true`.
    case containsWhere
    /// `allSatisfy`; stops at the first `false`.
    case allSatisfy
    /// `call` with a body that may throw, which stops the pass.
    case throwing
}

/// How the fuzzed multicast spells its `Delegate` type: each has its own layout in a slot.
package enum DelegateShape: Int, Sendable, Hashable, CaseIterable {
    /// `any FuzzDelegate`, a class-bound protocol: one reference.
    case classBound
    /// `any LooseDelegate`, a protocol that is not class-bound: an opaque existential container.
    case loose
    /// `FuzzProbe`, the class itself.
    case concrete
}

/// The sizes of a random program.
package enum FuzzShape {
    package static let lists = 2
    package static let handles = 8
    package static let maximumDepth = 3
}

extension FuzzOp {
    /// A random top-level program of `count` operations.
    package static func program(seed: UInt64, count: Int) -> [FuzzOp] {
        var random = SplitMix64(seed: seed)
        var filled = [Bool](repeating: false, count: FuzzShape.handles)
        var program: [FuzzOp] = []
        program.reserveCapacity(count)
        for _ in 0..<count {
            let list = random.below(FuzzShape.lists)
            // Mostly pick a handle that holds a delegate (as far as top-level operations tell).
            var handle = random.below(FuzzShape.handles)
            if !filled[handle], random.below(4) != 0,
                let some = filled.indices.filter({ filled[$0] }).randomElement(
                    using: &random)
            {
                handle = some
            }
            let roll = random.below(100)
            switch roll {
            case 0..<12:
                let created = filled.firstIndex(of: false) ?? random.below(FuzzShape.handles)
                program.append(.create(handle: created, strong: random.below(3) == 0))
                filled[created] = true
            case 12..<40: program.append(.add(list: list, handle: handle))
            case 40..<43: program.append(.reAdd(list: list, handle: handle))
            case 43..<52: program.append(.remove(list: list, handle: handle))
            case 52..<53: program.append(.removeAll(list: list))
            case 53..<56:
                program.append(.release(handle: handle))
                filled[handle] = false
            default:
                let kind = PassKind.allCases[random.below(PassKind.allCases.count)]
                program.append(.pass(list: list, kind: kind, script: random.next()))
            }
        }
        return program
    }

    /// What a delegate does on its turn in a pass, drawn from the pass's script.
    static func turn(_ random: inout SplitMix64, depth: Int) -> [FuzzOp] {
        let actions: Int
        switch random.below(100) {
        case 0..<45: actions = 0
        case 45..<80: actions = 1
        default: actions = 2
        }
        return (0..<actions).map { _ in
            let list = random.below(FuzzShape.lists)
            let handle = random.below(FuzzShape.handles)
            switch random.below(100) {
            case 0..<20: return .add(list: list, handle: handle)
            case 20..<24: return .reAdd(list: list, handle: handle)
            case 24..<36: return .remove(list: list, handle: handle)
            case 36..<46: return .removeSelf(list: list)
            case 46..<50 where random.below(2) == 0: return .removeAll(list: list)
            case 50..<55: return .release(handle: handle)
            case 55..<59: return .releaseSelf
            case 59..<66: return .create(handle: handle, strong: random.below(3) == 0)
            case 66..<82 where depth < FuzzShape.maximumDepth:
                let kind = PassKind.allCases[random.below(PassKind.allCases.count)]
                return .pass(list: list, kind: kind, script: random.next())
            default: return .check
            }
        }
    }
}
