// snippet.hide
import Foundation

// snippet.show
final class TabBar {}

struct TabBarDidSelect: NotificationCenter.MainActorMessage {
    typealias Subject = TabBar
    let tag: Int
}

@MainActor
final class FeedScreen {
    private var token: NotificationCenter.ObservationToken?  // the observer lives as long as this token

    init() {
        token = NotificationCenter.default.addObserver(of: nil, for: TabBarDidSelect.self) { [weak self] message in
            self?.tabBarDidSelect(tag: message.tag)
        }
    }

    func tabBarDidSelect(tag: Int) {}
}

@MainActor
func userDidSelect(tag: Int) {
    NotificationCenter.default.post(TabBarDidSelect(tag: tag))
}
