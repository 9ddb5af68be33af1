// snippet.hide
import Multicast

@MainActor
protocol SessionDelegate: AnyObject {
    func sessionDidEnd()
}

@MainActor
enum AppEvents {
    static let session = MulticastDelegate<any SessionDelegate>()
}

// snippet.show
/// A delegate made of a closure: what a block observer becomes.
@MainActor
final class SessionObserver: SessionDelegate {
    private let didEnd: () -> Void
    init(didEnd: @escaping () -> Void) { self.didEnd = didEnd }
    func sessionDidEnd() { didEnd() }
}

@MainActor
final class ProfileCache {
    init() {
        // Held while the cache lives, and gone with it: no token to keep, no deinit.
        AppEvents.session.add(SessionObserver { [weak self] in self?.clear() }, ownedBy: self)
    }

    func clear() {}
}
