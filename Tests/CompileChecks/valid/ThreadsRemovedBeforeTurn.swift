import Multicast

protocol Listener: AnyObject {
    func hear(_ event: String)
}

final class Screen: Listener {
    let name: String
    var onHear: () -> Void = {}

    init(_ name: String) { self.name = name }

    func hear(_ event: String) {
        print(name, "hears", event)
        onHear()
    }
}

func removedBeforeItsTurn() {
    let listeners = MulticastDelegate<any Listener>()
    let screens = (0...3).map { Screen("\($0)") }
    for screen in screens { listeners.add(screen) }

    screens[0].onHear = { [weak second = screens[1]] in
        if let second { listeners.remove(second) }
    }
    listeners.call { $0.hear("tap") }  // prints 0, 2 and 3: screen 1 was removed before its turn
    listeners.call { $0.hear("tap") }  // prints 0, 2 and 3
}
