import Multicast
import MulticastChecks
import Testing

@MainActor
protocol TabBarDelegate: AnyObject {
    func tabBarDidSelect(tag: Int)
}

@MainActor
final class TabScreen: TabBarDelegate {
    var selected: [Int] = []
    func tabBarDidSelect(tag: Int) {
        MainActor.assertIsolated()
        selected.append(tag)
    }
}

@MainActor
enum AppEvents {
    static let tabBar = MulticastDelegate<any TabBarDelegate>()
}

protocol ClockDelegate: AnyObject, Sendable {
    func tick()
}

enum Services {
    // A multicast of Sendable delegates is Sendable, so a global needs no isolation.
    static let clock = MulticastDelegate<any ClockDelegate>()
}

final class Ticker: ClockDelegate {
    let ticks = Guarded(0)
    func tick() { ticks.withValue { $0 += 1 } }
}

@Suite struct SwiftConcurrencyTests {
    @MainActor
    @Test func mainActorStaticMulticastIsCalledFromMainActorCode() {
        let screens = [TabScreen(), TabScreen(), TabScreen()]
        for screen in screens { AppEvents.tabBar.add(screen) }
        AppEvents.tabBar.call { $0.tabBarDidSelect(tag: 2) }
        #expect(screens.map(\.selected) == [[2], [2], [2]])
        AppEvents.tabBar.removeAll()
    }

    @Test func sendableStaticMulticastIsUsableFromAnyTask() async {
        let ticker = Ticker()
        Services.clock.add(ticker)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { Services.clock.call { $0.tick() } }
            }
        }
        #expect(ticker.ticks.value == 4)
        Services.clock.remove(ticker)
    }
}

/// A main-actor screen whose isolated deinit removes it from a hub: the remove finds it already gone.
@MainActor
final class LeavingScreen: ScreenEvents {
    let delegates: MulticastDelegate<any ScreenEvents>
    let removed: CallLog

    init(_ delegates: MulticastDelegate<any ScreenEvents>, removed: CallLog) {
        self.delegates = delegates
        self.removed = removed
    }

    func hear() {}

    isolated deinit {
        removed.append("\(delegates.remove(self))")
    }
}

@MainActor
@Suite struct IsolatedDeinitTests {
    @Test func removeInAnIsolatedDeinitAnswersFalse() async {
        let delegates = MulticastDelegate<any ScreenEvents>()
        let removed = CallLog()
        do {
            let screen = LeavingScreen(delegates, removed: removed)
            #expect(delegates.add(screen))
        }
        #expect(removed.calls == ["false"])  // the weak delegate was gone before its deinit ran
        #expect(delegates.isEmpty)
    }
}
