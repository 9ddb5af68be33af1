/// The obviously correct multicast: arrays of registrations, scanned linearly, and a liveness rule.
///
/// It encodes the core's behaviour, numbered as in `MulticastDelegateTests`' sections, as plainly as possible:
/// - 1, 2: a weak delegate is alive while the harness holds it or a pass is running its turn; a strong one also
///   while any list holds it.
/// - 3: identity is the probe's id; adding a registered delegate returns false and changes nothing.
/// - 5: registrations are appended; a removed and re-added delegate gets a new token at the end.
/// - 6: a pass walks the registrations of its start (see ``ModelPass``) and visits one only if its token is
///   still registered and it is live at its turn.
///
/// And the rules of owned registrations (`OwnedRegistrationTests`):
/// - An owned registration is live while it is registered and its owner alive: held by the harness, or kept by a
///   pass that calls back through its keeper during the owned delegate's turn. Owners never come back to life,
///   so a registration whose owner died stays ended until it is removed.
/// - It is found through its owner only: `contains(_:)` and `remove(_:)` of its delegate do not see it. An owner
///   has at most one registration in a list: an add for an owner that has one replaces it, as a removal followed
///   by an add would.
/// - Its delegate is a probe that only the multicast holds: alive while the registration is live or a pass runs
///   its turn; deallocated, outside passes, once the registration is removed or replaced; after its owner's
///   death and before its removal, when the multicast reclaims the slot, which the model does not predict.
/// - A removal from the owner's deinit also removes the ended registrations of earlier owners at the same
///   address, which the multicast cannot tell apart from the owner's own.
struct ReferenceModel {
    struct Probe {
        var strong: Bool
        var held = true
        /// Turns under way (in nested passes) of this delegate: each keeps it alive.
        var pins = 0
        /// The owner of an owned delegate's registration; nil for a weak or strong delegate.
        var owner: Int? = nil
        /// Whether an owned delegate's registration is still registered (live, or ended by its owner's death).
        var registered = false
    }

    struct Owner {
        /// Where the owner lives: its identity to the multicast, which a later owner may reuse once it died.
        var address: UInt
        var held = true
        /// Turns under way of its delegate in passes that keep the owner for the turn.
        var pins = 0

        var isAlive: Bool { held || pins > 0 }
    }

    struct Registration {
        var token: Int
        var probe: Int
        /// The owner of an owned registration; nil for a weak or strong one.
        var owner: Int?
    }

    var probes: [Probe] = []
    var owners: [Owner] = []
    var lists = [[Registration]](repeating: [], count: FuzzShape.lists)
    var handles = [Int?](repeating: nil, count: FuzzShape.handles)
    var ownerHandles = [Int?](repeating: nil, count: FuzzShape.owners)
    var lastToken = 0

    /// Whether `probe` is registered weakly or strongly in `list` (an owned registration is found by its owner).
    func isRegistered(_ probe: Int, in list: Int) -> Bool {
        lists[list].contains { $0.probe == probe && $0.owner == nil }
    }

    func isRegistered(token: Int, in list: Int) -> Bool {
        lists[list].contains { $0.token == token }
    }

    /// Whether a weak or strong probe is alive; for an owned one, whether something is known to keep it alive.
    func isAlive(_ probe: Int) -> Bool {
        let state = probes[probe]
        if state.held || state.pins > 0 { return true }
        if let owner = state.owner { return state.registered && owners[owner].isAlive }
        return state.strong && lists.indices.contains { isRegistered(probe, in: $0) }
    }

    /// Whether `probe` must be alive (true), must have been deallocated (false), or may be either (nil): the
    /// delegate of an owned registration that ended with its owner, until it is removed. Exact only outside
    /// passes: a pass's storage keeps removed strong and owned delegates until the pass ends.
    func expectedLife(of probe: Int) -> Bool? {
        let state = probes[probe]
        if let owner = state.owner, state.registered, !owners[owner].isAlive, state.pins == 0 { return nil }
        return isAlive(probe)
    }

    /// Whether a pass may call `registration`'s delegate, if it is registered.
    func isLive(_ registration: Registration) -> Bool {
        if let owner = registration.owner { return owners[owner].isAlive }
        return isAlive(registration.probe)
    }

    func count(_ list: Int) -> Int {
        lists[list].filter { isLive($0) }.count
    }

    /// The delegate of `owner`'s registration in `list`, if it has one: what `delegate(ownedBy:)` returns while
    /// `owner` is alive.
    func delegate(ownedBy owner: Int, in list: Int) -> Int? {
        lists[list].first { $0.owner == owner }?.probe
    }

    /// Creates a probe in `handle`; returns its id.
    mutating func create(handle: Int, strong: Bool) -> Int {
        release(handle: handle)
        probes.append(Probe(strong: strong))
        handles[handle] = probes.count - 1
        return probes.count - 1
    }

    /// Creates the delegate of an owned registration of `owner`, which the harness does not hold; returns its id.
    mutating func createOwned(by owner: Int) -> Int {
        probes.append(Probe(strong: true, held: false, owner: owner))
        return probes.count - 1
    }

    mutating func release(handle: Int) {
        if let old = handles[handle] { probes[old].held = false }
        handles[handle] = nil
    }

    /// Creates an owner at `address` in `handle`; returns its id.
    mutating func createOwner(handle: Int, address: UInt) -> Int {
        releaseOwner(handle: handle)
        owners.append(Owner(address: address))
        ownerHandles[handle] = owners.count - 1
        return owners.count - 1
    }

    mutating func releaseOwner(handle: Int) {
        if let old = ownerHandles[handle] { owners[old].held = false }
        ownerHandles[handle] = nil
    }

    mutating func add(_ probe: Int, to list: Int) -> Bool {
        guard !isRegistered(probe, in: list) else { return false }
        lastToken += 1
        lists[list].append(Registration(token: lastToken, probe: probe, owner: nil))
        return true
    }

    /// Registers the owned `probe` of `owner` at the end of `list`; returns the delegate of the registration it
    /// replaced, if `owner` had one there.
    mutating func add(_ probe: Int, ownedBy owner: Int, to list: Int) -> Int? {
        let replaced = remove(ownedBy: owner, from: list)
        lastToken += 1
        lists[list].append(Registration(token: lastToken, probe: probe, owner: owner))
        probes[probe].registered = true
        return replaced
    }

    mutating func remove(_ probe: Int, from list: Int) -> Bool {
        guard let index = lists[list].firstIndex(where: { $0.probe == probe && $0.owner == nil }) else {
            return false
        }
        lists[list].remove(at: index)
        return true
    }

    /// Removes `owner`'s registration from `list`; returns its delegate, or nil if it had none.
    mutating func remove(ownedBy owner: Int, from list: Int) -> Int? {
        guard let index = lists[list].firstIndex(where: { $0.owner == owner }) else { return nil }
        let probe = lists[list].remove(at: index).probe
        probes[probe].registered = false
        return probe
    }

    /// Removes from `list` what `remove(ownedBy:)` removes from the deinit of `owner`, now dead: its registration,
    /// and those of earlier owners at its address, which the multicast cannot tell apart from it (the multicast
    /// may have reclaimed those already). Returns the delegates of each.
    mutating func removeFromDeinit(ownedBy owner: Int, from list: Int) -> (own: Int?, earlier: [Int]) {
        let own = remove(ownedBy: owner, from: list)
        let owners = owners
        let address = owners[owner].address
        var earlier: [Int] = []
        lists[list].removeAll { registration in
            guard let other = registration.owner, owners[other].address == address else { return false }
            earlier.append(registration.probe)
            return true
        }
        for probe in earlier { probes[probe].registered = false }
        return (own, earlier)
    }

    mutating func removeAll(_ list: Int) {
        for registration in lists[list] where registration.owner != nil {
            probes[registration.probe].registered = false
        }
        lists[list].removeAll()
    }
}

/// A pass of the model: the registrations of its start, and how far it got.
struct ModelPass {
    let list: Int
    let snapshot: [ReferenceModel.Registration]
    var position = 0

    init(list: Int, model: ReferenceModel) {
        self.list = list
        snapshot = model.lists[list]
    }

    /// The registration whose turn comes next: the next one of the snapshot still registered, and live.
    mutating func next(in model: ReferenceModel) -> ReferenceModel.Registration? {
        while position < snapshot.count {
            let registration = snapshot[position]
            position += 1
            if model.isRegistered(token: registration.token, in: list) && model.isLive(registration) {
                return registration
            }
        }
        return nil
    }
}
