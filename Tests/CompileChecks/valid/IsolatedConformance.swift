import Multicast

protocol ThemeObserver: AnyObject {
    func themeDidChange()
}

@MainActor
final class SettingsScreen {
    var redraws = 0
}

extension SettingsScreen: @MainActor ThemeObserver {
    func themeDidChange() { redraws += 1 }
}

@MainActor
final class ThemeController {
    let observers = MulticastDelegate<any ThemeObserver>()

    func apply(_ screen: SettingsScreen) async {
        observers.add(screen)
        observers.call { $0.themeDidChange() }
    }
}
