import Testing

@testable import ChatDemoKit

@Suite struct LaunchTests {
    @Test func argumentsChooseWhatToRun() {
        #expect(Launch(arguments: []) == .session)
        #expect(Launch(arguments: ["--demo"]) == .demo)
        #expect(Launch(arguments: ["--help"]) == .help)
        #expect(Launch(arguments: ["--demo", "extra"]) == nil)
        #expect(Launch(arguments: ["--colour"]) == nil)
    }

    @Test func demoScriptIsValidInput() throws {
        for line in Launch.demoScript {
            #expect(throws: Never.self) { try Command.parse(line) }
        }
        #expect(try Command.parse(Launch.demoScript.last ?? "") == .quit)
    }
}
