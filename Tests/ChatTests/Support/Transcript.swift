import TerminalKit

@testable import Chat

/// Collects the lines a console writes, so tests can read what the demo showed.
final class Transcript: Sendable {
    private let written = Locked([String]())

    /// A console that writes into this transcript.
    func console(style: Console.Style = .plain) -> Console {
        Console(style: style) { [written] line in
            written.withLock { $0.append(line) }
        }
    }

    /// Every line written so far, oldest first.
    var lines: [String] {
        written.withLock { $0 }
    }

    /// The lines that contain `text`, oldest first.
    func lines(containing text: String) -> [String] {
        lines.filter { $0.contains(text) }
    }

    /// Forgets the lines written so far, so that a test can look at what comes next.
    func clear() {
        written.withLock { $0.removeAll() }
    }
}

/// The screens a started session opens, one of each kind in `ScreenKind`'s order: `chats#1`, `conversation#1`,
/// and so on. Tests that expect every screen read this list, so that a new kind of screen changes none of them.
let firstScreens = ScreenKind.allCases.map { "\($0.rawValue)#1" }

extension ChatSession {
    /// The names of the screens the multicast calls, in order.
    var subscribedNames: [String] {
        messages.map(\.name)
    }
}

/// A message in `general`, as typing `text` sends it.
func message(_ text: String, in conversation: String = "general", isSilent: Bool = false) -> ChatMessage {
    ChatMessage(conversation: conversation, text: text, isSilent: isSilent)
}
