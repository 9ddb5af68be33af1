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

// `add`, `remove` and `contains` are not inlined into the client: it calls them in Multicast, whose functions the
// script reads.
let listeners = MulticastDelegate<any Listener>()
let weak = Screen()
listeners.add(weak)
listeners.add(Screen(), retention: .strong)
callEach(listeners)
try callEachThrowing(listeners)
let screens = MulticastDelegate<Screen>()
screens.add(weak)
callEachScreen(screens)
print(listeners.contains(weak), listeners.remove(weak), weak.ticks)
