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
    /// Puts a new owner in `owner`, releasing the one there; `onDeinit` is what the owner does as it goes.
    case createOwner(owner: Int, onDeinit: OwnerDeinit)
    /// Adds a new delegate, which only the multicast holds, to `list`, owned by the owner in `owner`: replaces
    /// the owner's registration there if it has one.
    case addOwned(list: Int, owner: Int)
    /// Does what `addOwned` does if the model says the owner in `owner` has a registration in `list`: a
    /// replacement.
    case replace(list: Int, owner: Int)
    /// Removes the registration of the owner in `owner` from `list`.
    case removeOwned(list: Int, owner: Int)
    /// Drops the harness's reference to the owner in `owner`: it dies, unless a pass keeps it for its delegate's
    /// turn.
    case releaseOwner(owner: Int)
    /// On a delegate's turn: removes that delegate from `list`. An owned delegate is removed through its owner,
    /// if the owner lives, after a removal of the delegate itself, which must find nothing.
    case removeSelf(list: Int)
    /// On a delegate's turn: drops the harness's reference to that delegate, or to the owner of an owned one.
    case releaseSelf
    /// On a delegate's turn: compares `count`, `isEmpty`, `contains` and `delegate(ownedBy:)` with the model.
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
        case .createOwner(let owner, let onDeinit): ".createOwner(owner: \(owner), onDeinit: \(onDeinit))"
        case .addOwned(let list, let owner): ".addOwned(list: \(list), owner: \(owner))"
        case .replace(let list, let owner): ".replace(list: \(list), owner: \(owner))"
        case .removeOwned(let list, let owner): ".removeOwned(list: \(list), owner: \(owner))"
        case .releaseOwner(let owner): ".releaseOwner(owner: \(owner))"
        case .removeSelf(let list): ".removeSelf(list: \(list))"
        case .releaseSelf: ".releaseSelf"
        case .check: ".check"
        }
    }
}

/// What an owner does in its deinit, with itself as the owner.
package enum OwnerDeinit: Sendable, Hashable, CustomStringConvertible {
    case nothing
    /// `remove(ownedBy:)` from `list`: removes its ended registration, and releases the delegate.
    case removeOwned(list: Int)
    /// `add(_:ownedBy:)` of a new delegate to `list`: returns false, and registers nothing.
    case addOwned(list: Int)

    package var description: String {
        switch self {
        case .nothing: ".nothing"
        case .removeOwned(let list): ".removeOwned(list: \(list))"
        case .addOwned(let list): ".addOwned(list: \(list))"
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
    package static let owners = 4
    package static let maximumDepth = 3
}

extension FuzzOp {
    /// A random top-level program of `count` operations.
    package static func program(seed: UInt64, count: Int) -> [FuzzOp] {
        var random = SplitMix64(seed: seed)
        var filled = [Bool](repeating: false, count: FuzzShape.handles)
        var ownersFilled = [Bool](repeating: false, count: FuzzShape.owners)
        var program: [FuzzOp] = []
        program.reserveCapacity(count)
        for _ in 0..<count {
            let list = random.below(FuzzShape.lists)
            let handle = pick(filled, &random)
            let owner = pick(ownersFilled, &random)
            let roll = random.below(100)
            switch roll {
            case 0..<10:
                let created = filled.firstIndex(of: false) ?? random.below(FuzzShape.handles)
                program.append(.create(handle: created, strong: random.below(3) == 0))
                filled[created] = true
            case 10..<32: program.append(.add(list: list, handle: handle))
            case 32..<35: program.append(.reAdd(list: list, handle: handle))
            case 35..<43: program.append(.remove(list: list, handle: handle))
            case 43..<44: program.append(.removeAll(list: list))
            case 44..<47:
                program.append(.release(handle: handle))
                filled[handle] = false
            case 47..<51:
                let created = ownersFilled.firstIndex(of: false) ?? random.below(FuzzShape.owners)
                let onDeinit: OwnerDeinit
                switch random.below(4) {
                case 0: onDeinit = .removeOwned(list: random.below(FuzzShape.lists))
                case 1: onDeinit = .addOwned(list: random.below(FuzzShape.lists))
                default: onDeinit = .nothing
                }
                program.append(.createOwner(owner: created, onDeinit: onDeinit))
                ownersFilled[created] = true
            case 51..<57: program.append(.addOwned(list: list, owner: owner))
            case 57..<59: program.append(.replace(list: list, owner: owner))
            case 59..<62: program.append(.removeOwned(list: list, owner: owner))
            case 62..<64:
                program.append(.releaseOwner(owner: owner))
                ownersFilled[owner] = false
            default:
                let kind = PassKind.allCases[random.below(PassKind.allCases.count)]
                program.append(.pass(list: list, kind: kind, script: random.next()))
            }
        }
        return program
    }

    /// A random handle, mostly one that holds something (as far as top-level operations tell).
    private static func pick(_ filled: [Bool], _ random: inout SplitMix64) -> Int {
        let handle = random.below(filled.count)
        if !filled[handle], random.below(4) != 0,
            let some = filled.indices.filter({ filled[$0] }).randomElement(using: &random)
        {
            return some
        }
        return handle
    }

    /// What a delegate does on its turn in a pass: the actions drawn from the pass's script, `random`, with those
    /// on owned registrations, drawn from `owned`, a stream of its own, among them. (Without owners, the owned
    /// actions do nothing, so a program with none replays as it did before there were owned registrations.)
    static func turn(_ random: inout SplitMix64, owned: inout SplitMix64, depth: Int) -> [FuzzOp] {
        var actions = turn(&random, depth: depth)
        if owned.below(100) < 25 {
            let list = owned.below(FuzzShape.lists)
            let owner = owned.below(FuzzShape.owners)
            let action: FuzzOp
            switch owned.below(100) {
            case 0..<35: action = .addOwned(list: list, owner: owner)
            case 35..<50: action = .replace(list: list, owner: owner)
            case 50..<75: action = .removeOwned(list: list, owner: owner)
            default: action = .releaseOwner(owner: owner)
            }
            actions.insert(action, at: owned.below(actions.count + 1))
        }
        return actions
    }

    /// The actions on weak and strong delegates of a turn, drawn from the pass's script.
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
