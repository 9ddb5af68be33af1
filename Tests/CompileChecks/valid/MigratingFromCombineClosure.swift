// snippet.with: MigratingFromCombineSubject.swift
// snippet.hide
import Multicast

// snippet.show
/// A delegate made of a closure: what a `sink` or `subscribe(onNext:)` closure becomes.
@MainActor
final class TabSelectionHandler: TabBarDelegate {
    private let handle: (Int) -> Void
    init(_ handle: @escaping (Int) -> Void) { self.handle = handle }
    func tabBarDidSelect(tag: Int) { handle(tag) }
}

@MainActor
final class Analytics {
    private let tabBar: TabBar

    init(tabBar: TabBar) {
        self.tabBar = tabBar
        // Held while `self` lives, and ended with it: what `store(in: &cancellables)` did.
        tabBar.observers.add(TabSelectionHandler { [weak self] in self?.log(tag: $0) }, ownedBy: self)
    }

    func stop() {
        tabBar.observers.remove(ownedBy: self)  // what `cancellables.removeAll()` did
    }

    func log(tag: Int) {}
}
