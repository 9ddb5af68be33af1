// Each mistake that can never work stops the program with a message that says what happened and what to do.
// The tests run each mistake in a child process (an exit test), which Swift Testing has on these systems only.
#if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD) || os(Windows)
import Testing

import Multicast
@testable import _MulticastCore

@Suite struct RefusalTests {
    /// What the child process wrote to standard error before it stopped.
    func message(_ result: ExitTest.Result?) throws -> String {
        String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
    }

    // MARK: Types that can never hold a delegate, refused when the multicast is made

    @Test func anyErrorIsRefusedWithAMessageThatNamesIt() async throws {
        let message = try message(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = MulticastDelegate<any Error>()
            })
        #expect(message.contains("MulticastDelegate<any Error>"))
        #expect(message.contains("Declare a protocol for the events"))
    }

    /// `any Error & AnyObject`: the runtime boxes its values as it does `any Error`'s, in one word, where
    /// compiled code keeps the object and a witness table.
    @Test func anErrorWithAClassConstraintIsRefusedWithAMessageThatSaysWhatToDeclare() async throws {
        let message = try message(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = MulticastDelegate<any Error & AnyObject>()
            })
        #expect(message.contains("MulticastDelegate<Error & AnyObject>: the Swift runtime represents an `Error`"))
        #expect(message.contains("`protocol FailureObserver: AnyObject, Error`"))
    }

    /// `any C & Error`, a class and `Error`: the same representation as `any Error & AnyObject`.
    @Test func aClassAndErrorIsRefusedWithAMessageThatSaysWhatToDeclare() async throws {
        let message = try message(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = MulticastDelegate<any ProbeBase & Error>()
            })
        #expect(message.contains("MulticastDelegate<ProbeBase & Error>: the Swift runtime represents an `Error`"))
        #expect(message.contains("(or `: YourClass, Error`)"))
    }

    @Test func aTupleTypeIsRefusedWithAMessageThatNamesIt() async throws {
        let message = try message(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = MulticastDelegate<(any Listener, any Listener)>()
            })
        #expect(message.contains("is not a class or a protocol"))
    }

    @Test func aMetatypeIsRefusedWithAMessageThatNamesIt() async throws {
        let message = try message(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = MulticastDelegate<ProbeBase.Type>()
            })
        #expect(message.contains("ProbeBase.Type is not a class or a protocol"))
    }

    @Test func aClosureTypeIsRefusedWithAMessageThatSaysItIsNoDelegate() async throws {
        let message = try message(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = MulticastDelegate<() -> Void>()
            })
        #expect(message.contains("MulticastDelegate<() -> ()>: a closure is not a delegate"))
        #expect(message.contains("use `MulticastDelegate<any Listener>`"))
        #expect(!message.contains("make () -> () a class"))
    }

    @Test func anOptionalTypeIsRefusedWithAMessageThatSaysToDropTheOptional() async throws {
        let message = try message(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = MulticastDelegate<(any Listener)?>()
            })
        #expect(message.contains("MulticastDelegate<Optional<Listener>>: a multicast of optionals"))
        #expect(message.contains("declare it of the type that the optional wraps"))
    }

    @Test func aStructTypeIsRefusedWithAMessageThatNamesIt() async throws {
        let message = try message(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                struct Badge {}
                _ = MulticastDelegate<Badge>()
            })
        #expect(message.contains("Badge is not a class or a protocol"))
        #expect(message.contains("Make it a class, or declare a protocol for the events"))
    }

    // MARK: Values that are not class instances, refused when added

    @Test func addingAValueThatIsNotAClassInstanceStopsWithAMessageThatNamesIt() async throws {
        let message = try message(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                struct PlainGreeter: Greeter {
                    func greet() {}
                }
                MulticastDelegate<any Greeter>().add(PlainGreeter(), retention: .strong)
            })
        #expect(message.contains("PlainGreeter"))
        #expect(message.contains("Delegates must be classes"))
    }

    @Test func aStructInAnAnyIsRefusedWithAMessageThatNamesIt() async throws {
        let message = try message(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                struct Plain {}
                MulticastDelegate<Any>().add(Plain())
            })
        #expect(message.contains("Plain"))
        #expect(message.contains("Delegates must be classes"))
    }

    @Test func addingAValueThatIsNotAClassInstanceForAnOwnerStopsWithAMessageThatNamesIt() async throws {
        let message = try message(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                struct PlainGreeter: Greeter {
                    func greet() {}
                }
                let owner = ProbeBase("owner", log: CallLog())
                MulticastDelegate<any Greeter>().add(PlainGreeter(), ownedBy: owner)
                extendLifetime(owner)
            })
        #expect(message.contains("PlainGreeter"))
        #expect(message.contains("Delegates must be classes"))
    }

    // MARK: Owners that would keep a registration alive for as long as the multicast

    @Test func aDelegateOwnedByItselfStopsWithAMessageThatSaysToAddItStrongly() async throws {
        let message = try message(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let recorder = Recorder("r", log: CallLog())
                MulticastDelegate<any Listener>().add(recorder, ownedBy: recorder)
            })
        #expect(message.contains("add(_:ownedBy:): the Recorder being added is its own owner"))
        #expect(message.contains("add it with `retention: .strong`"))
    }

    @Test func aMulticastThatOwnsOneOfItsRegistrationsStopsWithAMessage() async throws {
        let message = try message(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let delegates = MulticastDelegate<any Listener>()
                let recorder = Recorder("r", log: CallLog())
                delegates.add(recorder, ownedBy: delegates)
            })
        #expect(message.contains("the multicast was named as the owner of one of its own registrations"))
        #expect(message.contains("add the delegate with `retention: .strong` instead"))
    }

    // MARK: A registered delegate added again with the other retention

    @Test func addingAWeakDelegateAgainWithStrongRetentionStopsWithAMessage() async throws {
        let message = try message(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let delegates = MulticastDelegate<any Listener>()
                let recorder = Recorder("r", log: CallLog())
                delegates.add(recorder)
                delegates.add(recorder, retention: .strong)
            })
        #expect(message.contains("the Recorder being added with .strong is registered already, held .weak"))
        #expect(message.contains("remove it first, then add it again with .strong"))
    }

    @Test func addingAStrongDelegateAgainWithWeakRetentionStopsWithAMessage() async throws {
        let message = try message(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let delegates = MulticastDelegate<any Listener>()
                let recorder = Recorder("r", log: CallLog())
                delegates.add(recorder, retention: .strong)
                delegates.registration.add(recorder)
            })
        #expect(message.contains("the Recorder being added with .weak is registered already, held .strong"))
        #expect(message.contains("remove it first, then add it again with .weak"))
    }

    // MARK: Objects being deallocated, refused when added

    @Test func addingAWeakDelegateFromItsDeinitStopsWithAMessage() async throws {
        let message = try message(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = AddsItselfInDeinit(MulticastDelegate<any Listener>(), .weak)
            })
        #expect(
            message.contains("the AddsItselfInDeinit being added is being deallocated (is add called from its deinit?)")
        )
        #expect(message.contains("a weak delegate leaves the multicast when it is deallocated"))
    }

    @Test func addingAStrongDelegateFromItsDeinitStopsWithAMessage() async throws {
        let message = try message(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                // The multicast outlives the delegate, and with it the count that the add took.
                let delegates = MulticastDelegate<any Listener>()
                _ = AddsItselfInDeinit(delegates, .strong)
                withExtendedLifetime(delegates) {}
            })
        if _Registry.probesStrongDelegates {
            #expect(message.contains("the AddsItselfInDeinit being added is being deallocated"))
        } else {
            // In an unoptimized build, the Swift runtime's own check, as the deinit ends: the multicast's count
            // outlived it.
            #expect(message.contains("AddsItselfInDeinit deallocated with non-zero retain count"))
            #expect(message.contains("created a strong reference to self which outlived deinit"))
        }
    }

    @Test func addingAnOwnedDelegateFromItsDeinitStopsWithAMessage() async throws {
        let message = try message(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let delegates = MulticastDelegate<any Listener>()
                let owner = ProbeBase("owner", log: CallLog())
                _ = AddsItselfInDeinit(delegates, ownedBy: owner)
                withExtendedLifetime((delegates, owner)) {}
            })
        if _Registry.probesStrongDelegates {
            #expect(message.contains("the AddsItselfInDeinit being added is being deallocated"))
        } else {
            #expect(message.contains("AddsItselfInDeinit deallocated with non-zero retain count"))
        }
    }
}

/// A delegate that adds itself to a multicast from its deinit, with the retention it was made with, or owned by
/// an owner.
final class AddsItselfInDeinit: Listener {
    let name = "adds itself"
    let delegates: MulticastDelegate<any Listener>
    let retention: Retention
    let owner: AnyObject?

    init(_ delegates: MulticastDelegate<any Listener>, _ retention: Retention) {
        self.delegates = delegates
        self.retention = retention
        owner = nil
    }

    init(_ delegates: MulticastDelegate<any Listener>, ownedBy owner: AnyObject) {
        self.delegates = delegates
        retention = .strong
        self.owner = owner
    }

    func hear(_ event: Int) {}

    deinit {
        if let owner {
            delegates.add(self, ownedBy: owner)
        } else {
            delegates.add(self, retention: retention)
        }
    }
}
#endif
