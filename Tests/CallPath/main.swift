// The client that Scripts/check-call-path.sh compiles unoptimized, as an app's debug build compiles its code, to
// find what the call path calls there. Each operation is in a function of its own, never inlined, so that the
// script finds the code that `call` was inlined into by the function's name.

import Multicast

protocol Listener: AnyObject {
    func tick()
}

final class Screen: Listener {
    var ticks = 0
    func tick() { ticks += 1 }
}

struct Stop: Error {}

/// `call` with a body that throws nothing, on a multicast of a protocol: the common case.
@inline(never)
func callEach(_ listeners: MulticastDelegate<any Listener>) {
    listeners.call { $0.tick() }
}

/// `call` with a body that throws a type of error.
@inline(never)
func callEachThrowing(_ listeners: MulticastDelegate<any Listener>) throws(Stop) {
    try listeners.call { (listener: any Listener) throws(Stop) in listener.tick() }
}

/// `call` on a multicast of a class.
@inline(never)
func callEachScreen(_ screens: MulticastDelegate<Screen>) {
    screens.call { $0.tick() }
}

/// `add`, weakly: inlined into the client as far as reading the delegate's bits; Multicast registers them.
@inline(never)
func addWeak(_ listeners: MulticastDelegate<any Listener>, _ listener: any Listener) -> Bool {
    listeners.add(listener)
}

/// `add`, strongly.
@inline(never)
func addStrong(_ listeners: MulticastDelegate<any Listener>, _ listener: any Listener) -> Bool {
    listeners.add(listener, retention: .strong)
}

/// `add` to a multicast of a class, whose delegates are one word.
@inline(never)
func addScreen(_ screens: MulticastDelegate<Screen>, _ screen: Screen) -> Bool {
    screens.add(screen)
}

/// `add` with an owner: inlined into the client as far as reading the delegate's bits, as `add` is.
@inline(never)
func addOwned(_ listeners: MulticastDelegate<any Listener>, _ listener: any Listener, _ owner: AnyObject) -> Bool {
    listeners.add(listener, ownedBy: owner)
}

/// `remove`: inlined as far as reading the delegate's object, as `add` is.
@inline(never)
func removeOne(_ listeners: MulticastDelegate<any Listener>, _ listener: any Listener) -> Bool {
    listeners.remove(listener)
}

/// `contains`, as `remove`.
@inline(never)
func containsOne(_ listeners: MulticastDelegate<any Listener>, _ listener: any Listener) -> Bool {
    listeners.contains(listener)
}

/// `remove(ownedBy:)`: a call of Multicast's, with the core inlined into it.
@inline(never)
func removeOwned(_ listeners: MulticastDelegate<any Listener>, _ owner: AnyObject) -> Bool {
    listeners.remove(ownedBy: owner)
}

/// `delegate(ownedBy:)`: the owned registration's delegate, found as `remove(ownedBy:)` finds it.
@inline(never)
func delegateOwned(_ listeners: MulticastDelegate<any Listener>, _ owner: AnyObject) -> (any Listener)? {
    listeners.delegate(ownedBy: owner)
}

let listeners = MulticastDelegate<any Listener>()
let weak = Screen()
let strong = Screen()
_ = addWeak(listeners, weak)
_ = addStrong(listeners, strong)
callEach(listeners)
try callEachThrowing(listeners)
let screens = MulticastDelegate<Screen>()
_ = addScreen(screens, weak)
callEachScreen(screens)
let owner = Screen()
_ = addOwned(listeners, Screen(), owner)
print(delegateOwned(listeners, owner) != nil, removeOwned(listeners, owner))
print(containsOne(listeners, weak), removeOne(listeners, weak), weak.ticks)
