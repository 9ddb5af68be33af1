import Chat
import Foundation
import TerminalKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `swift run ChatDemo`: the seed's chat app as a terminal program.
///
/// Three screens (a chat list, a conversation and a banner) listen to one `MulticastDelegate`; every line
/// typed is sent to them all. On a terminal, each screen is a pane of a full-screen view (``FullScreen``);
/// piped, or with `--plain`, each event is a line of output. See `/help`, or `ChatDemo --help` for the
/// options.
@main
struct ChatDemo {
    static func main() {
        guard let launch = Launch(arguments: Array(CommandLine.arguments.dropFirst())) else {
            FileHandle.standardError.write(Data((Launch.usage + "\n").utf8))
            exit(2)
        }
        if launch == .help {
            print(Launch.usage)
            return
        }

        let environment = ProcessInfo.processInfo.environment
        let isFullScreen = launch.showsFullScreen(
            inputIsTerminal: isatty(STDIN_FILENO) != 0,
            outputIsTerminal: isatty(STDOUT_FILENO) != 0,
            environment: environment
        )
        if isFullScreen,
            let status = FullScreen.run(
                demo: launch == .demo(plain: false),
                colored: Console.Style.forOutput(isTerminal: true, environment: environment) == .colored
            )
        {
            exit(status)
        }

        let style = Console.Style.forOutput(isTerminal: isatty(STDOUT_FILENO) != 0, environment: environment)
        let session = ChatSession(console: Console(style: style, sink: writeLine))
        session.start()
        switch launch {
        case .demo:
            session.play(Launch.demoScript, echo: true)
        default:
            let isInteractive = isatty(STDIN_FILENO) != 0
            session.play(standardInput(prompting: isInteractive), echo: !isInteractive)
        }
    }

    /// Writes a line to standard output: at once on a terminal, buffered into a pipe.
    @Sendable
    static func writeLine(_ line: String) {
        print(line)
    }

    /// The lines of standard input, read one by one as the session asks for them.
    ///
    /// - Parameter prompting: Whether to print a prompt before each line, for a terminal.
    static func standardInput(prompting: Bool) -> some Sequence<String> {
        AnyIterator {
            if prompting {
                print("> ", terminator: "")
                fflush(nil)  // all output streams: the prompt has no newline to flush it
            }
            guard let line = readLine() else {
                if prompting { writeLine("") }  // end the prompt's line after Control-D
                return nil
            }
            return line
        }
    }
}
