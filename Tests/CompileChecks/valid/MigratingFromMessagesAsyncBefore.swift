// snippet.hide
import Foundation

// snippet.show
final class Library {}

struct LibraryDidSync: NotificationCenter.AsyncMessage {
    typealias Subject = Library
    let changes: Int
}

final class SearchIndex: Sendable {
    private let token: NotificationCenter.ObservationToken

    init() {
        token = NotificationCenter.default.addObserver(of: nil, for: LibraryDidSync.self) { message in
            await SearchIndex.reindex(changes: message.changes)  // in a task of its own
        }
    }

    static func reindex(changes: Int) async {}
}

func libraryDidSync(changes: Int) {
    NotificationCenter.default.post(LibraryDidSync(changes: changes))  // returns before the observers run
}
