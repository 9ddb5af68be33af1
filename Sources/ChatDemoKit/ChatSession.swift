import Dispatch
import Foundation
import Multicast

/// The chat app: its open screens, the one multicast they listen on, and what each line of input does.
///
/// ```swift
/// let session = ChatSession(console: Console(style: .plain) { print($0) })
/// session.start()                                  // opens chats#1, conversation#1 and banner#1
/// session.play(["hi", "/close banner", "bye"], echo: true)
/// ```
///
/// The session owns the open screens, as a navigation stack owns its view controllers; the multicast only
/// holds them weakly. Closing a screen releases it, and the multicast stops calling it by itself: nothing in
/// the demo calls `remove`.
///
/// A session is driven from one thread; only `/burst` sends from others, and waits for them.
public final class ChatSession {
    /// The multicast every screen registers with.
    let messages = MulticastDelegate<any MessageDelegate>()

    /// Where the session and its screens print.
    let console: Console

    /// The open screens, oldest first: the only strong references to them.
    private var screens: [any MessageDelegate] = []

    /// How many screens of each kind have been opened, to number the next one.
    private var opened: [ScreenKind: Int] = [:]

    /// Creates a session with no screen open.
    ///
    /// - Parameter console: Where the session and its screens print.
    public init(console: Console) {
        self.console = console
    }

    /// Greets, then opens one screen of each kind, as the seed app's three tabs.
    public func start() {
        console.line("ChatDemo: every line you send reaches each open screen through one MulticastDelegate.")
        console.line("Type a message, or /help for the commands.")
        for kind in ScreenKind.allCases {
            open(kind)
        }
    }

    /// Handles lines until one of them quits or they run out, then closes every screen.
    ///
    /// - Parameters:
    ///   - lines: The input, one line per element; a lazy sequence may read it as it goes.
    ///   - echo: Whether to write each line back before handling it, so that a transcript of piped input or
    ///     of the built-in script shows what was typed. A terminal shows it already.
    public func play(_ lines: some Sequence<String>, echo: Bool) {
        for line in lines {
            if echo { console.echo(line) }
            guard handle(line) else { break }
        }
        end()
    }

    /// Handles one line of input.
    ///
    /// - Returns: `false` if the line ends the session.
    @discardableResult
    func handle(_ line: String) -> Bool {
        do {
            guard let command = try Command.parse(line) else { return true }
            return run(command)
        } catch {
            console.error(error.description)
            return true
        }
    }

    /// Runs a command; returns `false` if it ends the session.
    private func run(_ command: Command) -> Bool {
        switch command {
        case .send(let message): send(message)
        case .open(let kind): open(kind)
        case .close(let kind, let number): close(kind, number: number)
        case .screens: listScreens()
        case .unread: reportUnread()
        case .burst(let count): burst(count)
        case .help: console.line(Self.help)
        case .quit: return false
        }
        return true
    }

    /// Sends a message to every open screen, in the order they opened.
    private func send(_ message: ChatMessage) {
        guard !messages.isEmpty else {
            console.line("no screen is open to receive it; /open \(ScreenKind.chats.rawValue), for one")
            return
        }
        messages.call { $0.didReceive(message) }
    }

    /// Opens a new screen and registers it, weakly.
    private func open(_ kind: ScreenKind) {
        let number = opened[kind, default: 0] + 1
        opened[kind] = number
        let screen = kind.makeScreen(number: number, console: console)
        screens.append(screen)
        messages.add(screen)
        console.subscribed("\(screen.name) has been subscribed")
    }

    /// Closes a screen by releasing it: its `deinit` says it left, and the multicast forgets it.
    ///
    /// With no number, the most recently opened screen of the kind closes, as the top of a navigation stack
    /// would.
    private func close(_ kind: ScreenKind, number: Int?) {
        let prefix = kind.rawValue + "#"
        let index =
            if let number {
                screens.firstIndex { $0.name == prefix + String(number) }
            } else {
                screens.lastIndex { $0.name.hasPrefix(prefix) }
            }
        guard let index else {
            let open = screens.isEmpty ? "none" : screens.map(\.name).joined(separator: ", ")
            console.error("no \(number.map { prefix + String($0) } ?? kind.rawValue) screen is open; open: \(open)")
            return
        }
        screens.remove(at: index)  // the last strong reference: the screen's deinit runs here
    }

    /// Prints how many screens the multicast counts, and which, in the order they will be called.
    private func listScreens() {
        let count = messages.count
        let names = messages.map(\.name)
        switch count {
        case 0: console.line("no screen is subscribed")
        case 1: console.line("1 screen subscribed: \(names.joined(separator: ", "))")
        default: console.line("\(count) screens subscribed: \(names.joined(separator: ", "))")
        }
    }

    /// Asks every screen for its unread count, a result from each delegate, and prints them and their total.
    private func reportUnread() {
        let answers = messages.map { (name: $0.name, unread: $0.unreadCount) }
        let total = answers.reduce(0) { $0 + $1.unread }
        let each = answers.map { "\($0.name) \($0.unread)" }.joined(separator: ", ")
        console.line(answers.isEmpty ? "unread: no screen is open" : "unread: \(each); total \(total)")
    }

    /// The number of threads `/burst` sends from.
    static let burstThreads = 4

    /// Sends `count` silent messages from ``burstThreads`` threads at once, waits for them, and checks that
    /// every open screen received exactly `count`.
    private func burst(_ count: Int) {
        let before = Dictionary(uniqueKeysWithValues: receivedCounts().map { ($0.name, $0.count) })
        let messages = messages
        let gate = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()
        for thread in 0..<Self.burstThreads {
            // Thread t sends messages t, t + 4, t + 8, ...: `count` in all.
            let share = stride(from: thread, to: count, by: Self.burstThreads)
            finished.enter()
            Thread.detachNewThread {
                gate.wait()  // all threads start together
                for number in share {
                    let message = ChatMessage(conversation: "burst", text: "burst \(number + 1)", isSilent: true)
                    messages.call { $0.didReceive(message) }
                }
                finished.leave()
            }
        }
        for _ in 0..<Self.burstThreads {
            gate.signal()
        }
        finished.wait()

        let after = receivedCounts()
        let sent = "burst: \(Self.burstThreads) threads sent \(count) messages at once"
        guard !after.isEmpty else {
            console.line("\(sent); no screen is open to receive them")
            return
        }
        let received = after.map { (name: $0.name, count: $0.count - (before[$0.name] ?? 0)) }
        if received.allSatisfy({ $0.count == count }) {
            let names = received.map(\.name).joined(separator: ", ")
            console.received("\(sent); every open screen received exactly \(count): \(names)")
        } else {
            let each = received.map { "\($0.name) \($0.count)" }.joined(separator: ", ")
            console.error("\(sent); screens received: \(each)")
        }
    }

    /// How many messages each subscribed screen has received, in the order they opened.
    private func receivedCounts() -> [(name: String, count: Int)] {
        messages.map { (name: $0.name, count: $0.receivedCount) }
    }

    /// Says goodbye and closes every screen, oldest first.
    private func end() {
        console.line("bye")
        while !screens.isEmpty {
            screens.removeFirst()
        }
    }

    /// What `/help` prints.
    static let help = """
        Type a line to send it to every open screen, in conversation general; @alice hi sends it in alice.
          /open <screen>    open a new screen: \(ScreenKind.choices); two of a kind may be open
          /close <screen>   close the most recently opened screen of a kind, or one by name, as /close chats#1
          /screens          how many screens the multicast counts, and which, in the order they are called
          /unread           ask every screen for its unread count, and add them up
          /burst N          send N messages (\(Command.burstCounts.lowerBound) to \(Command.burstCounts.upperBound)) \
        from \(burstThreads) threads at once, then check each screen got N
          /help             this list
          /quit             end the session (so does the end of the input)
        """
}
