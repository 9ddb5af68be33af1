// expected-error: main actor-isolated conformance of 'SettingsScreen' to 'ThemeObserver' cannot be used in nonisolated context
// default-isolation MainActor: expected-error: main actor-isolated conformance of 'SettingsScreen' to 'ThemeObserver' cannot be used in nonisolated context
import Multicast

protocol ThemeObserver: AnyObject {
    func themeDidChange()
}

@MainActor
final class SettingsScreen {}

extension SettingsScreen: @MainActor ThemeObserver {
    func themeDidChange() {}
}

nonisolated func register(_ screen: SettingsScreen, in observers: MulticastDelegate<any ThemeObserver>) {
    observers.add(screen)
}
