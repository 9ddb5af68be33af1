/// The obviously correct multicast: arrays of registrations, scanned linearly, and a liveness rule.
///
/// It encodes the core's behaviour, numbered as in `MulticastDelegateTests`' sections, as plainly as possible:
/// - 1, 2: a weak delegate is alive while the harness holds it or a pass is running its turn; a strong one also
///   while any list holds it.
/// - 3: identity is the probe's id; adding a registered delegate returns false and changes nothing.
/// - 5: registrations are appended; a removed and re-added delegate gets a new token at the end.
/// - 6: a pass walks the registrations of its start (see ``ModelPass``) and visits one only if its token is
///   still registered and its delegate alive at its turn.
struct ReferenceModel {
    struct Probe {
        var strong: Bool
        var held = true
        /// Turns under way (in nested passes) of this delegate: each keeps it alive.
        var pins = 0
    }

    struct Registration {
        var token: Int
        var probe: Int
    }

    var probes: [Probe] = []
    var lists = [[Registration]](repeating: [], count: FuzzShape.lists)
    var handles = [Int?](repeating: nil, count: FuzzShape.handles)
    var lastToken = 0

    func isRegistered(_ probe: Int, in list: Int) -> Bool {
        lists[list].contains { $0.probe == probe }
    }

    func isRegistered(token: Int, in list: Int) -> Bool {
        lists[list].contains { $0.token == token }
    }

    func isAlive(_ probe: Int) -> Bool {
        let state = probes[probe]
        if state.held || state.pins > 0 { return true }
        return state.strong && lists.indices.contains { isRegistered(probe, in: $0) }
    }

    func count(_ list: Int) -> Int {
        lists[list].filter { isAlive($0.probe) }.count
    }

    /// Creates a probe in `handle`; returns its id.
    mutating func create(handle: Int, strong: Bool) -> Int {
        release(handle: handle)
        probes.append(Probe(strong: strong))
        handles[handle] = probes.count - 1
        return probes.count - 1
    }

    mutating func release(handle: Int) {
        if let old = handles[handle] { probes[old].held = false }
        handles[handle] = nil
    }

    mutating func add(_ probe: Int, to list: Int) -> Bool {
        guard !isRegistered(probe, in: list) else { return false }
        lastToken += 1
        lists[list].append(Registration(token: lastToken, probe: probe))
        return true
    }

    mutating func remove(_ probe: Int, from list: Int) -> Bool {
        guard let index = lists[list].firstIndex(where: { $0.probe == probe }) else { return false }
        lists[list].remove(at: index)
        return true
    }

    mutating func removeAll(_ list: Int) {
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

    /// The delegate whose turn comes next: the next registration of the snapshot still registered, and alive.
    mutating func next(in model: ReferenceModel) -> Int? {
        while position < snapshot.count {
            let registration = snapshot[position]
            position += 1
            if model.isRegistered(token: registration.token, in: list) && model.isAlive(registration.probe) {
                return registration.probe
            }
        }
        return nil
    }
}
