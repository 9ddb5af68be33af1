import Testing

@testable import Chat

@Suite struct LaunchTests {
    @Test func argumentsChooseWhatToRun() {
        #expect(Launch(arguments: []) == .session(plain: false))
        #expect(Launch(arguments: ["--demo"]) == .demo(plain: false))
        #expect(Launch(arguments: ["--help"]) == .help)
        #expect(Launch(arguments: ["-h"]) == .help)
        #expect(Launch(arguments: ["--demo", "extra"]) == nil)
        #expect(Launch(arguments: ["--colour"]) == nil)
    }

    @Test func plainCombinesWithDemoInEitherOrderOnce() {
        #expect(Launch(arguments: ["--plain"]) == .session(plain: true))
        #expect(Launch(arguments: ["--demo", "--plain"]) == .demo(plain: true))
        #expect(Launch(arguments: ["--plain", "--demo"]) == .demo(plain: true))
        #expect(Launch(arguments: ["--plain", "--plain"]) == nil)
        #expect(Launch(arguments: ["--help", "--plain"]) == nil)
    }

    @Test func fullScreenOnlyWhenInputAndOutputAreATerminalAndPlainIsNotAsked() {
        let terminal = ["TERM": "xterm-256color"]
        #expect(
            Launch.session(plain: false).showsFullScreen(
                inputIsTerminal: true, outputIsTerminal: true, environment: terminal))
        #expect(
            Launch.demo(plain: false).showsFullScreen(
                inputIsTerminal: true, outputIsTerminal: true, environment: terminal))
        #expect(
            !Launch.session(plain: true).showsFullScreen(
                inputIsTerminal: true, outputIsTerminal: true, environment: terminal))
        #expect(
            !Launch.demo(plain: true).showsFullScreen(
                inputIsTerminal: true, outputIsTerminal: true, environment: terminal))
        #expect(
            !Launch.session(plain: false).showsFullScreen(
                inputIsTerminal: false, outputIsTerminal: true, environment: terminal))
        #expect(
            !Launch.session(plain: false).showsFullScreen(
                inputIsTerminal: true, outputIsTerminal: false, environment: terminal))
        #expect(
            !Launch.session(plain: false).showsFullScreen(
                inputIsTerminal: true, outputIsTerminal: true, environment: ["TERM": "dumb"]))
        #expect(!Launch.help.showsFullScreen(inputIsTerminal: true, outputIsTerminal: true, environment: terminal))
    }

    @Test func usageNamesEveryOption() {
        for option in ["--demo", "--plain", "--help"] {
            #expect(Launch.usage.contains("\n  \(option) "), "usage does not describe \(option)")
        }
    }

    @Test func demoScriptIsValidInput() throws {
        for line in Launch.demoScript {
            #expect(throws: Never.self) { try Command.parse(line) }
        }
        #expect(try Command.parse(Launch.demoScript.last ?? "") == .quit)
    }
}
