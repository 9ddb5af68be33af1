// Not a documentation sample: the shape Swift 6.4 checks anew (an isolated conformance reaching an async generic
// callee), through each async entry point a main-actor type with an isolated conformance uses. Every one of them
// runs on its caller's actor (`nonisolated(nonsending)`), and none takes the delegates' protocol as a generic
// requirement, so the conformance stays on the main actor: this compiles (see CONTRIBUTING.md, "Swift 6.4").
import Multicast

protocol ThemeObserver: AnyObject {
    func themeDidChange()
    nonisolated(nonsending) func themeWillChange() async
}

@MainActor
final class SettingsScreen {
    var redraws = 0
}

extension SettingsScreen: @MainActor ThemeObserver {
    func themeDidChange() { redraws += 1 }
    func themeWillChange() async {}
}

@MainActor
final class ThemeController {
    let observers = MulticastDelegate<any ThemeObserver>()

    func apply(_ screen: SettingsScreen) async {
        observers.add(screen)
        await observers.inTurn.call { await $0.themeWillChange() }
        await observers.inTurn.call { $0.themeDidChange() }
        let answered = await observers.inTurn.map { _ in true }
        let anyone = await observers.inTurn.contains { _ in true }
        _ = (answered, anyone)
    }
}
