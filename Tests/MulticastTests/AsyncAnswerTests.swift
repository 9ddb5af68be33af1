import Testing

@testable import Multicast

/// Documents that answer on the main actor, one of them after a suspension.
@MainActor
protocol ClosingDocument: AnyObject {
    var name: String { get }
    func mayClose() async -> Bool
}

@MainActor
final class Document: ClosingDocument {
    let name: String
    let answer: Bool
    let log: CallLog

    init(_ name: String, answer: Bool = true, log: CallLog) {
        self.name = name
        self.answer = answer
        self.log = log
    }

    func mayClose() async -> Bool {
        MainActor.assertIsolated()
        await Task.yield()
        MainActor.assertIsolated()  // still on the caller's actor after the suspension
        log.append(name)
        return answer
    }
}

/// Async questions asked one after another on the caller's actor: the delegates need not be `Sendable`.
@MainActor
@Suite struct AsyncAnswerTests {
    let log = CallLog()

    func documents(_ answers: (String, Bool)...) -> (MulticastDelegate<any ClosingDocument>, [Document]) {
        let delegates = MulticastDelegate<any ClosingDocument>()
        let all = answers.map { Document($0.0, answer: $0.1, log: log) }
        for document in all { delegates.add(document) }
        return (delegates, all)
    }

    @Test func mapAsksEachInOrderOnTheCallersActor() async {
        let (delegates, all) = documents(("a", true), ("b", false), ("c", true))
        let answers = await delegates.inTurn.map { await $0.mayClose() }
        #expect(answers == [true, false, true])
        #expect(log.calls == ["a", "b", "c"])
        withExtendedLifetime(all) {}
    }

    @Test func allSatisfyStopsAtTheFirstRefusal() async {
        let (delegates, all) = documents(("a", true), ("b", false), ("c", true))
        defer { extendLifetime(all) }
        #expect(await !delegates.inTurn.allSatisfy { await $0.mayClose() })
        #expect(log.calls == ["a", "b"])
        log.clear()
        delegates.remove(all[1])
        #expect(await delegates.inTurn.allSatisfy { await $0.mayClose() })
        #expect(log.calls == ["a", "c"])
    }

    @Test func firstAndContainsStopAtTheFirstYes() async {
        let (delegates, all) = documents(("a", false), ("b", true), ("c", true))
        #expect(await delegates.inTurn.first { await $0.mayClose() }?.name == "b")
        #expect(log.calls == ["a", "b"])
        log.clear()
        #expect(await delegates.inTurn.contains { await $0.mayClose() })
        #expect(log.calls == ["a", "b"])
        withExtendedLifetime(all) {}
    }

    @Test func aThrowingQuestionStopsTheAnswersAndKeepsItsType() async {
        let (delegates, all) = documents(("a", true), ("b", false), ("c", true))
        func ask() async throws(Stop) -> [String] {
            try await delegates.inTurn.map { document async throws(Stop) in
                guard await document.mayClose() else { throw Stop(name: document.name) }
                return document.name
            }
        }
        do {
            _ = try await ask()
            Issue.record("map did not throw")
        } catch {
            #expect(error == Stop(name: "b"))  // compiles only because `error` is a `Stop`
        }
        #expect(log.calls == ["a", "b"])
        withExtendedLifetime(all) {}
    }

    @Test func aDelegateRemovedWhileAnEarlierOneIsSuspendedIsNotAsked() async {
        let (delegates, all) = documents(("a", true), ("b", true), ("c", true))
        let answers = await delegates.inTurn.map { document -> String in
            if document.name == "a" { delegates.remove(all[1]) }
            _ = await document.mayClose()
            return document.name
        }
        #expect(answers == ["a", "c"])
    }

    @Test func synchronousQuestionsInAsyncCodePickTheSynchronousMembers() async {
        let (delegates, all) = documents(("a", true), ("b", false))
        let names = delegates.map { $0.name }  // no `await`: the synchronous map
        let short = delegates.allSatisfy { $0.name.count == 1 }
        #expect(names == ["a", "b"])
        #expect(short)
        #expect(log.calls.isEmpty)
        withExtendedLifetime(all) {}
    }
}
