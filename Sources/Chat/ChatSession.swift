import Dispatch
import Foundation
import Multicast
import TerminalKit

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
/// A session is driven from one thread; only `/burst` sends from others, and waits for them. What the screens
/// show may be read from any thread, through ``screenStates``.
package final class ChatSession {
    /// The multicast every screen registers with, named `messages` in its traces (see `/trace`).
    let messages = MulticastDelegate<any MessageDelegate>(label: "messages")

    /// Where the session and its screens print.
    let console: Console

    /// About how long `/burst` takes, in seconds; 0 sends as fast as the threads can.
    private let burstSeconds: Double

    /// Called after each message reaches the screens, on the thread that sent it.
    private let afterDelivery: @Sendable () -> Void

    /// The open screens, oldest first: the only strong references to them.
    private var screens: [any MessageDelegate] = []

    /// How many screens of each kind have been opened, to number the next one.
    private var opened: [ScreenKind: Int] = [:]

    /// Creates a session with no screen open.
    ///
    /// - Parameters:
    ///   - console: Where the session and its screens print.
    ///   - burstSeconds: About how long `/burst` takes: its threads pause between messages, so that a screen
    ///     that draws their counters shows them climbing. With 0, the default, they send as fast as they can.
    ///   - afterDelivery: Called after each message has reached every screen, on the thread that sent it:
    ///     four threads at once during `/burst`.
    package init(console: Console, burstSeconds: Double = 0, afterDelivery: @escaping @Sendable () -> Void = {}) {
        self.console = console
        self.burstSeconds = burstSeconds
        self.afterDelivery = afterDelivery
        // Where each screen is added, recorded from the start and nothing traced, so that `/trace` shows the site
        // of every screen, the ones opened before it too.
        messages.diagnostics = .recordingSites
    }

    /// What the subscribed screens show, for any thread to read.
    package var screenStates: ScreenStates {
        ScreenStates(messages: messages)
    }

    /// Greets, then opens one screen of each kind, as the seed app's three tabs.
    package func start() {
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
    package func play(_ lines: some Sequence<String>, echo: Bool) {
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
        case .trace: toggleTrace()
        case .help: console.line(Self.help)
        case .quit: return false
        }
        return true
    }

    /// Sends a message to every open screen, in the order they opened, and says so if none received it.
    ///
    /// The call itself counts the screens it reached. `isEmpty`, checked first, would answer for a moment before
    /// the call: a closed screen that the full-screen view's thread still holds may be released in between.
    private func send(_ message: ChatMessage) {
        var receivers = 0
        messages.call { screen in
            screen.didReceive(message)
            receivers += 1
        }
        guard receivers > 0 else {
            console.line("no screen is open to receive it; /open \(ScreenKind.chats.rawValue), for one")
            return
        }
        afterDelivery()
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
    ///
    /// While the trace is on, it is paused for the burst: its messages are silent, and their trace would be
    /// thousands of lines.
    private func burst(_ count: Int) {
        let trace = messages.diagnostics
        messages.diagnostics = .recordingSites
        defer { messages.diagnostics = trace }
        let before = Dictionary(uniqueKeysWithValues: receivedCounts().map { ($0.name, $0.count) })
        let (messages, afterDelivery) = (messages, afterDelivery)
        let gate = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()
        // The pause between two messages of a thread, for the burst to last about `burstSeconds`.
        let sharePerThread = (count + Self.burstThreads - 1) / Self.burstThreads
        let pause = sharePerThread > 1 ? burstSeconds / Double(sharePerThread - 1) : 0
        for thread in 0..<Self.burstThreads {
            // Thread t sends messages t, t + 4, t + 8, ...: `count` in all.
            let share = stride(from: thread, to: count, by: Self.burstThreads)
            finished.enter()
            Thread.detachNewThread {
                gate.wait()  // all threads start together
                for number in share {
                    if pause > 0 && number >= Self.burstThreads { Thread.sleep(forTimeInterval: pause) }
                    let message = ChatMessage(conversation: "burst", text: "burst \(number + 1)", isSilent: true)
                    messages.call { $0.didReceive(message) }
                    afterDelivery()
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
          /trace            trace on or off: with each message, every screen called, where it was added, and its time
          /help             this list
          /quit             end the session (so does the end of the input)
        """
}

extension ChatSession {
    /// What the screens of a session show, for any thread to read: the full-screen view draws from it while the
    /// session runs commands and `/burst` sends from other threads.
    package struct ScreenStates: Sendable {
        /// The session's multicast; it holds the screens weakly, so a closed screen is not in it.
        let messages: MulticastDelegate<any MessageDelegate>

        /// A snapshot of every subscribed screen, in the order the multicast calls them.
        ///
        /// The panes come from iterating the multicast: a screen that was released has no pane. Each screen is
        /// copied under its own lock, one after another, so during `/burst` one pane's counter may be ahead of
        /// the next. Reading sends nothing.
        ///
        /// The iteration holds each screen while it copies it: a screen closed meanwhile is released when its copy
        /// is done, on the thread that takes the snapshot, and says it left from there.
        package func snapshot() -> [ScreenSnapshot] {
            messages.map(\.snapshot)
        }
    }
}
