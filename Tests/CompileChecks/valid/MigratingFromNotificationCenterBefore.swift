// snippet.hide
import Foundation

// snippet.show
extension Notification.Name {
    static let tabBarDidSelect = Notification.Name("TabBarDidSelect")
}

@MainActor
final class FeedScreen {
    nonisolated(unsafe) private var observer: (any NSObjectProtocol)?  // for deinit

    init() {
        observer = NotificationCenter.default.addObserver(
            forName: .tabBarDidSelect, object: nil, queue: .main
        ) { [weak self] notification in
            guard let tag = notification.userInfo?["tag"] as? Int else { return }  // a typo here fails silently
            MainActor.assumeIsolated { self?.tabBarDidSelect(tag: tag) }
        }
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }

    func tabBarDidSelect(tag: Int) {}
}

@MainActor
func userDidSelect(tag: Int) {
    NotificationCenter.default.post(name: .tabBarDidSelect, object: nil, userInfo: ["tag": tag])
}
