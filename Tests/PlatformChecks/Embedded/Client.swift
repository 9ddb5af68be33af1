// Compiled into the library by Scripts/check-32-bit.sh, so that the 32-bit targets compile its generic code:
// Embedded Swift emits a generic function only where a caller specializes it. Every public operation that the
// check's sources declare is used once, on a class-bound protocol existential, as apps use the multicast, and
// with a strong delegate too, so that the registry, its storage, slots and slot index, and the lock are all
// compiled for the target's word size.

protocol Listener: AnyObject {
    func heard(_ value: Int)
}

final class Ear: Listener {
    var last = 0
    func heard(_ value: Int) { last = value }
}

public func exerciseMulticast() -> Int {
    let listeners = MulticastDelegate<any Listener>()
    let weakEar = Ear()
    let strongEar = Ear()
    listeners.add(weakEar)
    listeners.add(strongEar, retention: .strong)
    listeners.call { $0.heard(listeners.count) }
    var total = 0
    for listener in listeners { total += (listener as? Ear)?.last ?? 0 }
    let removed = listeners.remove(weakEar) && !listeners.contains(weakEar)
    listeners.removeAll()
    return removed && listeners.isEmpty ? total : -1
}
