// An app that uses the SDK in `SDK/` as a binary framework: it sees the SDK and Multicast through their module
// interfaces alone, and links against their shared libraries. `Scripts/check-library-evolution.sh` checks what it
// prints.
import Multicast
import SDK

final class Screen: DownloadObserver {
    let name: String

    init(name: String) {
        self.name = name
    }

    func downloadDidFinish(_ file: String) {
        print("\(name) was told that \(file) finished")
    }
}

let downloader = Downloader()
let screen = Screen(name: "screen")
downloader.registration.add(screen)
downloader.observers.add(Screen(name: "logger"), retention: .strong)

downloader.finish("report.pdf")  // the multicast's call, inlined from its interface into the app
downloader.finishInSDK("photo.jpg")  // the same call in the SDK's binary

// Iteration and an exhaustive switch over `Retention`, which is frozen, against the binary framework.
let names = downloader.observers.map { ($0 as? Screen)?.name ?? "?" }
print("observers: \(names.joined(separator: ", ")) (\(downloader.observers.count))")
for retention in [Retention.weak, .strong] {
    switch retention {
    case .weak: print("retention: weak")
    case .strong: print("retention: strong")
    }
}

downloader.registration.remove(screen)
downloader.finish("notes.txt")
withExtendedLifetime(screen) {}
