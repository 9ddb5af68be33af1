import Testing

@testable import Chat

@Suite struct ScreenKindTests {
    @Test(arguments: ScreenKind.allCases)
    func screenSaysItLeftWhenReleased(kind: ScreenKind) {
        let transcript = Transcript()
        do {
            let screen = kind.makeScreen(number: 3, console: transcript.console())
            #expect(screen.name == "\(kind.rawValue)#3")
            #expect(transcript.lines.isEmpty)
        }
        #expect(transcript.lines == ["\(kind.rawValue)#3 left (released; no remove call)"])
    }
}
