import Testing

@testable import Chat

@Suite struct CommandTests {
    @Test func aLineThatIsNoCommandIsAMessageInGeneral() throws {
        #expect(try Command.parse("hi there") == .send(message("hi there")))
        #expect(try Command.parse("  padded  ") == .send(message("padded")))
    }

    @Test func atNameSendsInThatConversation() throws {
        #expect(try Command.parse("@alice see you at 5") == .send(message("see you at 5", in: "alice")))
    }

    @Test func atNameWithoutTextIsAnError() {
        #expect(throws: CommandError.emptyMessage) { try Command.parse("@alice") }
        #expect(throws: CommandError.emptyMessage) { try Command.parse("@alice   ") }
    }

    @Test func blankLineIsNothing() throws {
        #expect(try Command.parse("") == nil)
        #expect(try Command.parse(" \t ") == nil)
    }

    @Test func commandsWithoutArguments() throws {
        #expect(try Command.parse("/screens") == .screens)
        #expect(try Command.parse("/unread") == .unread)
        #expect(try Command.parse("/trace") == .trace)
        #expect(try Command.parse("/Trace") == .trace)
        #expect(try Command.parse("/help") == .help)
        #expect(try Command.parse("/quit") == .quit)
        #expect(try Command.parse("/QUIT") == .quit)
    }

    @Test func commandsWithoutArgumentsRefuseOne() {
        #expect(throws: CommandError.unexpectedArgument(command: "/screens")) { try Command.parse("/screens all") }
        #expect(throws: CommandError.unexpectedArgument(command: "/trace")) { try Command.parse("/trace on") }
    }

    @Test func openTakesAScreenKindInAnyCase() throws {
        #expect(try Command.parse("/open chats") == .open(.chats))
        #expect(try Command.parse("/open Conversation") == .open(.conversation))
        #expect(try Command.parse("/open  banner ") == .open(.banner))
    }

    @Test func closeTakesAKindOrANumberedName() throws {
        #expect(try Command.parse("/close chats") == .close(.chats, number: nil))
        #expect(try Command.parse("/close chats#2") == .close(.chats, number: 2))
    }

    @Test func closeRefusesAnInstanceNumberThatIsNoNumber() {
        for screen in ["chats#", "chats#x", "chats#0", "chats#-1"] {
            #expect(throws: CommandError.unknownScreen(screen, command: "/close")) {
                try Command.parse("/close \(screen)")
            }
        }
    }

    @Test func openRefusesANumberedName() {
        #expect(throws: CommandError.unknownScreen("chats#2", command: "/open")) { try Command.parse("/open chats#2") }
    }

    @Test func unknownScreenErrorListsTheScreens() {
        let kinds = ScreenKind.allCases.map(\.rawValue).joined(separator: ", ")
        #expect(throws: CommandError.unknownScreen("inbox", command: "/open")) { try Command.parse("/open inbox") }
        #expect(
            CommandError.unknownScreen("inbox", command: "/open").description
                == "no screen \"inbox\"; screens: \(kinds)")
        #expect(
            CommandError.missingScreen(command: "/close").description
                == "/close needs a screen: \(kinds), or a name like chats#1")
    }

    @Test func unknownCommandErrorListsTheCommands() {
        #expect(throws: CommandError.unknownCommand("/bogus")) { try Command.parse("/bogus 1 2") }
        #expect(
            CommandError.unknownCommand("/bogus").description
                == "unknown command /bogus; commands: /open, /close, /screens, /unread, /burst, /trace, /help, /quit")
    }

    @Test func burstTakesACountInItsRange() throws {
        #expect(try Command.parse("/burst 1") == .burst(1))
        #expect(try Command.parse("/burst 10000") == .burst(10_000))
    }

    @Test(arguments: ["", " 0", " -5", " 10001", " 99999999999999999999999", " ten", " 5 6"])
    func burstWithABadCountSaysTheRange(argument: String) {
        let given = argument.isEmpty ? nil : String(argument.dropFirst())
        #expect(throws: CommandError.badBurstCount(given)) { try Command.parse("/burst\(argument)") }
        #expect(
            CommandError.badBurstCount(given).description.hasPrefix(
                "/burst takes a number of messages from 1 to 10000, as in /burst 100"))
    }
}
