import TerminalKit
import Testing

@testable import Chat

@Suite struct ConsoleChatTests {
    @Test func coloredConsolePaintsSubscribedOrangeReceivedGreenAndErrorsRed() {
        let transcript = Transcript()
        let console = transcript.console(style: .colored)

        console.subscribed("chats#1 has been subscribed")
        console.received("chats#1 received \"hi\"")
        console.error("no screen")
        console.line("bye")

        #expect(
            transcript.lines == [
                "\u{1B}[38;5;208mchats#1 has been subscribed\u{1B}[0m",
                "\u{1B}[32mchats#1 received \"hi\"\u{1B}[0m",
                "\u{1B}[31merror: no screen\u{1B}[0m",
                "bye",
            ])
    }

    @Test func plainConsoleWritesNoEscapeCodes() {
        let transcript = Transcript()
        let console = transcript.console(style: .plain)

        console.subscribed("chats#1 has been subscribed")
        console.received("chats#1 received \"hi\"")
        console.error("no screen")

        #expect(transcript.lines == ["chats#1 has been subscribed", "chats#1 received \"hi\"", "error: no screen"])
    }

    @Test func styleSinkGetsEachLineUndecoratedWithTheStyleOfWhatItIsAbout() {
        let lines = Locked([String]())
        let console = Console { text, style in lines.withLock { $0.append("\(style): \(text)") } }

        console.subscribed("chats#1 has been subscribed")
        console.received("chats#1 received \"hi\"")
        console.error("no screen")
        console.echo("hi")
        console.line("bye")

        #expect(
            lines.withLock { $0 } == [
                "orange: chats#1 has been subscribed",
                "green: chats#1 received \"hi\"",
                "red: error: no screen",
                "plain: > hi",
                "plain: bye",
            ])
    }
}
