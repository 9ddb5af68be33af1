// snippet.hide
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

// snippet.show
func addedDuringAPass() {
    let listeners = MulticastDelegate<any Listener>()
    let (first, late) = (Screen("first"), Screen("late"))
    listeners.add(first)
    first.onHear = { [weak late] in
        if let late { listeners.add(late) }
    }
    listeners.call { $0.hear("one") }  // prints first: late was added during this pass
    listeners.call { $0.hear("two") }  // prints first, then late
}

func nestedCall() {
    let listeners = MulticastDelegate<any Listener>()
    let screens = (0...2).map { Screen("\($0)") }
    for screen in screens { listeners.add(screen) }
    var nested = false
    screens[1].onHear = {
        guard !nested else { return }
        nested = true
        listeners.call { $0.hear("nested") }  // runs fully, then the outer pass goes on
    }
    listeners.call { $0.hear("outer") }  // 0 outer, 1 outer, 0 nested, 1 nested, 2 nested, 2 outer
}
